import FoundationEssentials
import ShowcaseCore

/// Brings `<directory>/v1/` to exactly the documents a set of rosters calls for, and says what it did.
///
/// This is the export's one entry point: the daemon hands it every configured roster's ``ExportRoster`` after a
/// new revision, a reload or `Admin.Export`, and logs the ``ExportReport``. The rules it keeps:
///
/// - **Only changed bytes are written**, each atomically (a temporary file in the same directory, flushed to
///   disk, renamed over the old one; then the renames flushed), so an unchanged document keeps its mtime and
///   nginx its ETag, and a reader never sees half a file. The flushes are one syncfs(2) per export, not an fsync
///   per file: on ext4 each fsync is a journal commit, paid per file (BENCHMARKS.md).
/// - **Unchanged files are known without reading them back** when the caller keeps an ``ExportMemory`` across
///   passes (the daemon does): a file whose inode, size, mtime and ctime are as the last pass saw them holds what
///   that pass saw, so one `lstat` and a digest of the wanted bytes decide. Anything else is read and compared.
/// - With ``gzip``, `NAME.json.gz` (the same bytes, deterministic gzip) sits beside every document and
///   `index.json`, for nginx's `gzip_static`.
/// - **Nothing it did not write is touched**: `v1/.showcase-manifest` lists every file it wrote; only those are
///   ever replaced or removed. A foreign file where a document belongs is reported, not overwritten.
/// - Documents of rosters no longer configured (or ``ExportRoster/Content-swift.enum/absent``) are removed; a
///   roster in a diagnostic (``ExportRoster/Content-swift.enum/keepLastGood(revision:)``) keeps its documents
///   byte for byte.
/// - **Revisions live in the documents**: for ``ExportRoster/Content-swift.enum/latest(apps:now:)`` each document
///   keeps the revision on disk while its apps are unchanged and takes the next one when they change, so a
///   restart never renumbers the tree and one platform's change never touches the other's document.
/// - **Failures are values** in the report (full disk, permissions): never a throw or a trap.
///
/// Calls for one directory must not overlap (the daemon runs exports one at a time); the files' mode is 0644
/// and new directories' 0755, so a web server's user can read what the daemon's user writes.
public struct ExportWriter: Sendable {
    /// `export.directory`: documents go to its `v1/`.
    public var directory: String
    /// `export.gzip`: also keep a `.json.gz` beside each document.
    public var gzip: Bool
    /// The files rendered beside each document (`.html`, `.email.html`, `.atom`), written by the same rules.
    public var renderers: [any DocumentRenderer]
    /// The files rendered once per host (`<host>/banner.html`).
    public var hostRenderers: [any HostFileRenderer]
    /// `export.public_url`, for the renderers' ``RenderContext``.
    public var publicURL: String

    /// A writer for `directory` (absolute, as the configuration resolved it), writing each document's JSON and
    /// what `renderers` and `hostRenderers` render beside it.
    public init(
        directory: String, gzip: Bool = true, renderers: [any DocumentRenderer] = [],
        hostRenderers: [any HostFileRenderer] = [], publicURL: String = "/showcase/v1/"
    ) {
        self.directory = directory
        self.gzip = gzip
        self.renderers = renderers
        self.hostRenderers = hostRenderers
        self.publicURL = publicURL
    }

    /// The tree's root, `<directory>/v1`.
    public var root: String { PathText.appending("v1", to: directory) }

    /// Largest file the writer reads back to compare (a document of 200 apps is a few hundred KiB).
    static let readLimit = 64 << 20

    /// Brings the tree up to date with `rosters` (every configured roster: one missing here counts as no longer
    /// configured, and its documents are removed), reading back every file it compares.
    public func export(_ rosters: [ExportRoster]) -> ExportReport {
        var memory = ExportMemory()
        return export(rosters, remembering: &memory)
    }

    /// Brings the tree up to date with `rosters`, as ``export(_:)``, trusting what `memory` remembers of files
    /// that have not changed since (``ExportMemory``) instead of reading them back, and leaving in it what this
    /// pass saw. The daemon passes the same memory to every pass into the same directory.
    public func export(_ rosters: [ExportRoster], remembering memory: inout ExportMemory) -> ExportReport {
        export(rosters, icons: [:], remembering: &memory)
    }

    /// Brings the tree up to date with `rosters`, as ``export(_:remembering:)``, storing the mirrored icons their
    /// apps reference (SPEC §16): `icons` holds the bytes of icons fetched since the last pass, by path
    /// (`icons/<digest>.<ext>`), and `known` every icon path the apps may name (those of deferred rosters cannot be
    /// seen before they are built); an icon neither in the tree nor given is left out of the documents and listed
    /// in ``ExportReport/missingIcons``.
    public func export(
        _ rosters: [ExportRoster], icons fetched: [String: Data], known: Set<String> = [],
        remembering memory: inout ExportMemory
    ) -> ExportReport {
        var report = ExportReport(directory: directory)
        let files: FileSystem
        do {
            files = try FileSystem(directory: directory)
        } catch {
            report.errors.append(
                ExportError(
                    error.isUnexpectedEntry ? .unexpectedEntry : .directoryUnusable, path: root,
                    "cannot use the export directory \(root): \(error.message); create it writable by the daemon's "
                        + "user, or point export.directory elsewhere"))
            return report
        }
        let manifestName = ExportManifest.fileName
        var knownManifest = memory.root == root ? memory.manifest : nil
        if let known = knownManifest, files.identity(of: manifestName) != known.identity { knownManifest = nil }
        let previous: ExportManifest
        if let knownManifest {
            previous = knownManifest.listed
        } else {
            let read = files.read(manifestName, limit: Self.readLimit)
            previous = ExportManifest(parsing: read?.bytes ?? Data())
            knownManifest = read.flatMap {
                $0.identity.isSettled(now: memory.clock.now) ? ($0.identity, previous) : nil
            }
        }

        var existing = ExistingFiles(root: root, memory: memory)
        var icons = planIcons(
            rosters, known: known, fetched: fetched, previous: previous, existing: &existing, files: files,
            into: &report)
        var shown = rosters.map { $0.keepingIcons(in: icons.available) }
        var planned = plan(shown, previous: previous, existing: &existing, files: files, errors: &report.errors)
        report.rostersReused = planned.reusedCount
        report.rostersRendered = planned.renderedCount
        var documents = ours(planned.documents, previous: previous, existing: &existing, files: files, into: &report)

        // List every file before it can first exist, so a crash never leaves one of ours unlisted. The list only
        // grows here, so what it gained says whether it changed (a tree of 55,000 files is not compared whole).
        let indexPaths = ["index.json"] + (gzip ? ["index.json.gz"] : [])
        var listed = previous
        var added = Set<String>()
        for path in documents.map(\.path) + icons.files.map(\.path) + indexPaths
        where !previous.paths.contains(path) {
            added.insert(path)
        }
        // A reused roster's files are listed already, unless someone edited the manifest.
        for path in planned.reused.keys where !previous.paths.contains(path) { added.insert(path) }
        listed.paths.formUnion(added)
        if !added.isEmpty { knownManifest = nil }
        if !added.isEmpty, let failure = files.writeAtomically(listed.encoded(), to: manifestName) {
            report.errors.append(
                ExportError(
                    .writeFailed, path: path(manifestName),
                    "could not write the export manifest \(path(manifestName)): \(failure.reason); nothing was "
                        + "exported (free some space or fix the directory's permissions, then export again)"))
            return report
        }

        // Icons first, so a document never references one that is not there yet; one that could not be written is
        // left out of the documents, planned again without it.
        var rememberedIcons: [String: ExportMemory.File] = [:]
        publish(
            &icons.files, existing: &existing, files: files, flushingEach: false, remembered: &rememberedIcons,
            into: &report)
        let failedIcons = Set(icons.files.filter(\.failed).map(\.path))
        if !failedIcons.isEmpty {
            icons.missing.formUnion(failedIcons)
            shown = rosters.map { $0.keepingIcons(in: icons.available) }
            planned = plan(shown, previous: previous, existing: &existing, files: files, errors: &report.errors)
            documents = ours(planned.documents, previous: previous, existing: &existing, files: files, into: &report)
        }
        report.missingIcons = icons.missing
        // The files of reused rosters are known to hold what they should: remembered as they are, never planned.
        var remembered = planned.reused
        remembered.reserveCapacity(existing.rememberedCount)
        remembered.merge(rememberedIcons) { _, icon in icon }
        report.unchanged += planned.reused.count

        // Documents next, then index.json built from what they came to (so it lists only documents that exist as
        // this pass wrote or kept them, and a reader that follows it finds them there).
        publish(
            &documents, existing: &existing, files: files, flushingEach: false, remembered: &remembered, into: &report)
        let present = Set(documents.filter { !$0.failed && !$0.isGzip }.map(\.path))
        let index = ExportIndex(
            documents: planned.entries.filter { present.contains($0.path) || planned.reused[$0.path] != nil },
            diagnostics: planned.diagnostics
        ).encoded()
        var indexFiles = ours(
            withGzip([PlannedFile(path: "index.json", source: index, digest: ContentDigest(index), isGzip: false)]),
            previous: previous, existing: &existing, files: files, into: &report)
        publish(
            &indexFiles, existing: &existing, files: files, flushingEach: true, remembered: &remembered, into: &report)
        files.releaseReplaced()

        // Icons stay while a document references them: a current one, or one kept byte for byte.
        let keptIcons = Self.iconsInKeptDocuments(shown, planned: documents).filter { previous.paths.contains($0) }
        let wantedIcons = planned.icons.intersection(icons.available).union(keptIcons)
        // Wanted: the reused rosters' files, and what this pass planned (few, after a small change).
        let plannedWanted = Set((documents + indexFiles).map(\.path)).union(wantedIcons)
        var gone = Set<String>()
        for stale in previous.paths.filter({ planned.reused[$0] == nil && !plannedWanted.contains($0) }).sorted() {
            switch files.remove(stale) {
            case .removed:
                report.removed += 1
                gone.insert(stale)
            case .alreadyGone: gone.insert(stale)
            case .failed(let failure):
                report.add(
                    ExportError(
                        failure.unexpected == nil ? .removeFailed : .unexpectedEntry,
                        path: failure.unexpected ?? path(stale),
                        "could not remove \(path(stale)), which showcased exported earlier and no longer needs: "
                            + "\(failure.reason); it stays listed and is retried on the next export"))
            }
        }

        // A file that failed to be written for the first time does not exist: it leaves the list again.
        let absentAfterFailure = (documents + indexFiles + icons.files).filter {
            $0.failed && !previous.paths.contains($0.path)
        }
        .map(\.path)
        // The final list is every file wanted and every stale one that could not be removed: the list as it was,
        // less what is gone, what was listed for this pass but is not wanted after all, and what failed to be
        // written for the first time; plus anything wanted that was never listed.
        let dropped = gone.union(added.filter { planned.reused[$0] == nil && !plannedWanted.contains($0) })
            .union(absentAfterFailure)
        let unlisted = plannedWanted.filter { !listed.paths.contains($0) }.subtracting(absentAfterFailure)
        var final = listed
        final.paths.subtract(dropped)
        final.paths.formUnion(unlisted)
        if !dropped.isEmpty || !unlisted.isEmpty { knownManifest = nil }
        if !dropped.isEmpty || !unlisted.isEmpty,
            let failure = files.writeAtomically(final.encoded(), to: manifestName)
        {
            report.errors.append(
                ExportError(
                    .writeFailed, path: path(manifestName),
                    "could not update the export manifest \(path(manifestName)): \(failure.reason); files removed "
                        + "in this export stay listed, which is harmless, until a later export succeeds"))
        }
        // One more flush makes the renames and removals durable (instead of an fsync per directory). A pass that
        // changed nothing flushes nothing: syncfs also waits for every other program's writes to the file system.
        if files.hasChangedDirectories {
            if files.syncFileSystem() == nil { files.forgetChangedDirectories() }
            files.syncDirectories()
        }
        report.filesRead = existing.readCount
        // A roster any of whose files failed is rendered again next time, whatever its fingerprint.
        let failed = Set(
            (documents + indexFiles).filter(\.failed).map { $0.isGzip ? String($0.path.dropLast(3)) : $0.path })
        let rendered = planned.rendered.filter { _, memo in memo.files.keys.allSatisfy { !failed.contains($0) } }
        memory = ExportMemory(
            root: root, files: remembered, rendered: rendered, manifest: knownManifest, clock: memory.clock)
        return report
    }

    /// Writes every file of `plan` whose bytes differ from what is on disk: stages each, flushes them (one syncfs,
    /// or with `flushingEach` an fsync per file, for a batch of one or two), then renames each over its target.
    /// Marks the ones that failed; counts written and unchanged files; leaves what it knows in `remembered`.
    func publish(
        _ plan: inout [PlannedFile], existing: inout ExistingFiles, files: FileSystem, flushingEach: Bool,
        remembered: inout [String: ExportMemory.File], into report: inout ExportReport
    ) {
        var staged: [(index: Int, temporary: String)] = []
        for index in plan.indices {
            if let known = existing.remembered(plan[index].path, files: files) {
                // The file is as this writer last saw it: its digest says whether it holds what is wanted.
                if known.digest == plan[index].digest {
                    report.unchanged += 1
                    remembered[plan[index].path] = known
                    continue
                }
            } else if let read = existing.take(plan[index].path, limit: Self.readLimit, files: files),
                plan[index].matches(read.bytes)
            {
                report.unchanged += 1
                if read.settled { remembered[plan[index].path] = plan[index].remembered(as: read.identity) }
                continue
            }
            guard let bytes = plan[index].bytes() else {
                fail(&plan[index], FileSystem.Failure(reason: "gzip could not compress it"), into: &report)
                continue
            }
            switch files.stage(bytes, for: plan[index].path) {
            case .success(let temporary): staged.append((index, temporary))
            case .failure(let failure): fail(&plan[index], failure, into: &report)
            }
        }
        if !staged.isEmpty, flushingEach || files.syncFileSystem() != nil {
            // One by one (a small batch, or syncfs failed with a writeback error: find out which files are safe).
            staged = staged.filter { index, temporary in
                guard let failure = files.sync(file: temporary) else { return true }
                files.discard(temporary)
                fail(&plan[index], failure, into: &report)
                return false
            }
        }
        for (index, temporary) in staged {
            if let failure = files.commit(temporary, to: plan[index].path) {
                fail(&plan[index], failure, into: &report)
            } else {
                report.written += 1
            }
        }
    }

    /// Records that writing `file` failed: the previous version, if any, stays.
    private func fail(_ file: inout PlannedFile, _ failure: FileSystem.Failure, into report: inout ExportReport) {
        file.failed = true
        if let planted = failure.unexpected {
            report.add(ExportError(.unexpectedEntry, path: planted, failure.reason))
            return
        }
        let target = path(file.path)
        report.add(
            ExportError(
                .writeFailed, path: target,
                "could not write \(target): \(failure.reason); the previous version, if any, stays in place "
                    + "(free some space or fix the permissions, then export again)"))
    }

    /// `relative` (to `v1/`) as an absolute path.
    func path(_ relative: String) -> String { root + "/" + relative }

    /// What the rosters call for: every document (each with its `.gz` when ``gzip``), the index entry each would
    /// have, and the diagnostics; unsafe names dropped with an error.
    func plan(
        _ rosters: [ExportRoster], previous: ExportManifest, existing: inout ExistingFiles, files: FileSystem,
        errors: inout [ExportError]
    ) -> Plan {
        var documents: [String: PlannedFile] = [:]
        var reusedFiles: [String: ExportMemory.File] = [:]
        reusedFiles.reserveCapacity(existing.rememberedCount)
        var entries: [ExportIndexEntry] = []
        var diagnostics: [ExportDiagnostic] = []
        var memos: [String: ExportMemory.Rendered] = [:]
        var reusedCount = 0
        var renderedCount = 0
        var referenced = Set<String>()
        for var roster in rosters {
            let names = [roster.host, roster.storefront.code] + (roster.language.map { [$0] } ?? [])
            if let unsafe = names.first(where: { !ExportManifest.isSafeComponent(Substring($0)) }) {
                errors.append(
                    ExportError(
                        .invalidDocument, path: path(names.joined(separator: "/")),
                        "cannot export host \(roster.host) in \(roster.storefront.code): '\(unsafe)' is not a safe "
                            + "file name (letters, digits, '.', '_', '-', starting with a letter or digit)"))
                continue
            }
            if let error = roster.error {
                diagnostics.append(
                    ExportDiagnostic(
                        host: roster.host, storefront: roster.storefront, language: roster.language,
                        state: roster.state, error: error))
            }
            let key = names.joined(separator: "/")
            if let (reused, known) = reusable(roster, key: key, existing: &existing, files: files),
                known.allSatisfy({ documents[$0.path] == nil && reusedFiles[$0.path] == nil })
            {
                // Inputs as the last pass rendered them, and every file still as it left them: nothing to render,
                // nothing to plan.
                reusedCount += 1
                for (path, file) in known { reusedFiles[path] = file }
                for platform in Platform.allCases {
                    for relative in roster.paths(for: platform) where reused.files[relative] != nil {
                        entries.append(
                            ExportIndexEntry(
                                path: relative, host: roster.host, storefront: roster.storefront, platform: platform,
                                language: roster.language, state: roster.state,
                                revision: reused.files[relative]?.revision,
                                fetchedAt: roster.fetchedAt, error: roster.error))
                    }
                }
                memos[key] = reused
                referenced.formUnion(reused.icons)
                continue
            }
            if case .deferred(let now, let apps) = roster.content { roster.content = .latest(apps: apps(), now: now) }
            let rosterIcons = Self.referencedIcons([roster])
            referenced.formUnion(rosterIcons)
            switch roster.content {
            case .current, .latest: renderedCount += 1
            case .deferred, .keepLastGood, .absent: break
            }
            var made: [String: ExportMemory.RenderedFile] = [:]
            let current = Dictionary(uniqueKeysWithValues: roster.documents.map { ($0.platform, $0.encoded()) })
            for platform in Platform.allCases {
                for relative in roster.paths(for: platform) {
                    guard documents[relative] == nil, reusedFiles[relative] == nil else {
                        errors.append(
                            ExportError(
                                .invalidDocument, path: path(relative),
                                "two rosters export the same document \(path(relative)); only the first is written "
                                    + "(list each host, storefront and language once)"))
                        continue
                    }
                    var revision = roster.revision
                    let document: PlannedFile?
                    switch roster.content {
                    case .current(_, let revisedAt, _):
                        document = current[platform].map {
                            PlannedFile(
                                path: relative, source: $0, digest: ContentDigest($0), isGzip: false,
                                revision: revision, revisedAt: revisedAt)
                        }
                    case .latest(let apps, let now):
                        let earlier =
                            existing.remembered(relative, files: files).flatMap(PreviousDocument.init(remembered:))
                            ?? existing.read(relative, limit: Self.readLimit, files: files).flatMap {
                                PreviousDocument(bytes: $0.bytes)
                            }
                        let revised = roster.revisedDocument(
                            platform, apps: apps[platform] ?? [], now: now, previous: earlier)
                        revision = revised.revision
                        document = PlannedFile(
                            path: relative, source: revised.bytes, digest: revised.digest, isGzip: false,
                            revision: revised.revision, revisedAt: revised.revisedAt)
                    case .keepLastGood:
                        let kept =
                            previous.paths.contains(relative)
                            ? existing.read(relative, limit: Self.readLimit, files: files)?.bytes : nil
                        let header = kept.flatMap(ExportDocument.revision(in:))
                        if revision == nil { revision = header?.revision }
                        document = kept.map {
                            PlannedFile(
                                path: relative, source: $0, digest: ContentDigest($0), isGzip: false,
                                revision: header?.revision, revisedAt: header?.revisedAt)
                        }
                    case .absent, .deferred: document = nil
                    }
                    guard let document else { continue }
                    documents[relative] = document
                    made[relative] = ExportMemory.RenderedFile(
                        digest: document.digest, revision: document.revision, revisedAt: document.revisedAt)
                    for file in rendered(
                        beside: relative, of: roster, platform: platform, document: document, previous: previous,
                        existing: &existing, files: files)
                    {
                        documents[file.path] = file
                        made[file.path] = ExportMemory.RenderedFile(digest: file.digest)
                    }
                    entries.append(
                        ExportIndexEntry(
                            path: relative, host: roster.host, storefront: roster.storefront, platform: platform,
                            language: roster.language, state: roster.state, revision: revision,
                            fetchedAt: roster.fetchedAt, error: roster.error))
                }
            }
            if let fingerprint = roster.fingerprint, case .latest = roster.content {
                memos[key] = ExportMemory.Rendered(
                    fingerprint: fingerprint, settings: settingsKey, files: made, icons: rosterIcons)
            }
        }
        for file in hostFiles(rosters, previous: previous, existing: &existing, files: files)
        where documents[file.path] == nil && reusedFiles[file.path] == nil {
            documents[file.path] = file
        }
        // In path order, so the folders are visited one after another.
        return Plan(
            documents: withGzip(documents.keys.sorted().compactMap { documents[$0] }), reused: reusedFiles,
            entries: entries, diagnostics: diagnostics, rendered: memos, reusedCount: reusedCount,
            renderedCount: renderedCount, icons: referenced)
    }

    /// What ``plan(_:previous:existing:files:errors:)`` found: the files wanted, the index entries and diagnostics,
    /// what each roster's files were rendered from, and how many rosters needed no rendering.
    struct Plan {
        /// The files to compare with the tree and write where they differ.
        var documents: [PlannedFile]
        /// The files of reused rosters (with their `.gz`), known to hold what they should: written nowhere.
        var reused: [String: ExportMemory.File]
        var entries: [ExportIndexEntry]
        var diagnostics: [ExportDiagnostic]
        var rendered: [String: ExportMemory.Rendered]
        var reusedCount: Int
        var renderedCount: Int
        /// The icons the documents of current rosters reference, rendered now or reused.
        var icons: Set<String>
    }

    /// The settings that shape every rendered file, compared with the ones a remembered roster was rendered with.
    private var settingsKey: [String] {
        [gzip ? "gzip" : "plain", publicURL] + renderers.map(\.suffix)
    }

    /// What the last pass rendered for `roster`, when it can stand: the roster's fingerprint and the writer's
    /// settings are the ones it was rendered with, and every file (and its `.gz`) is still as that pass left it
    /// (one `lstat` each, as ``ExportMemory`` trusts). Only for current content: a roster in a diagnostic keeps
    /// its files by reading them.
    private func reusable(_ roster: ExportRoster, key: String, existing: inout ExistingFiles, files: FileSystem)
        -> (ExportMemory.Rendered, [(path: String, file: ExportMemory.File)])?
    {
        switch roster.content {
        case .latest, .deferred: break
        case .current, .keepLastGood, .absent: return nil
        }
        guard let fingerprint = roster.fingerprint, let memo = existing.rendered[key], memo.fingerprint == fingerprint,
            memo.settings == settingsKey, !memo.files.isEmpty
        else { return nil }
        var known: [(path: String, file: ExportMemory.File)] = []
        known.reserveCapacity(memo.files.count * (gzip ? 2 : 1))
        for (path, file) in memo.files {
            guard let found = existing.stillHolds(path, files: files), found.digest == file.digest else { return nil }
            known.append((path, found))
            if gzip {
                let compressed = path + ".gz"
                guard let found = existing.stillHolds(compressed, files: files), found.digest == file.digest else {
                    return nil
                }
                known.append((compressed, found))
            }
        }
        return (memo, known)
    }

    /// The files ``renderers`` render beside the document planned at `relative`: from the document itself when the
    /// roster is current, else (a roster in a diagnostic keeps its documents) the files written earlier, byte for
    /// byte.
    private func rendered(
        beside relative: String, of roster: ExportRoster, platform: Platform, document: PlannedFile,
        previous: ExportManifest, existing: inout ExistingFiles, files: FileSystem
    ) -> [PlannedFile] {
        guard !renderers.isEmpty else { return [] }
        let stem = relative.hasSuffix(".json") ? String(relative.dropLast(".json".count)) : relative
        var exported: ExportDocument?
        switch roster.content {
        case .current(_, _, let apps), .latest(let apps, _):
            exported = ExportDocument(
                host: roster.host, storefront: roster.storefront, platform: platform, language: roster.language,
                revision: document.revision ?? 1, revisedAt: document.revisedAt ?? Date(timeIntervalSince1970: 0),
                apps: apps[platform] ?? [])
        case .keepLastGood, .absent, .deferred: exported = nil
        }
        let context = RenderContext(roster: roster, publicURL: publicURL, documentPath: relative)
        return renderers.compactMap { renderer in
            let path = stem + renderer.suffix
            let bytes: Data
            if let exported {
                bytes = Data(renderer.render(exported, in: context))
            } else if previous.paths.contains(path), let kept = existing.read(path, limit: Self.readLimit, files: files)
            {
                bytes = kept.bytes
            } else {
                return nil
            }
            return PlannedFile(path: path, source: bytes, digest: ContentDigest(bytes), isGzip: false)
        }
    }

    /// The files ``hostRenderers`` render once per host, from its first roster they have something to say for; a
    /// host they say nothing for yet keeps the file written earlier.
    private func hostFiles(
        _ rosters: [ExportRoster], previous: ExportManifest, existing: inout ExistingFiles, files: FileSystem
    ) -> [PlannedFile] {
        guard !hostRenderers.isEmpty else { return [] }
        var hosts: [String] = []
        var byHost: [String: [ExportRoster]] = [:]
        for roster in rosters where ExportManifest.isSafeComponent(Substring(roster.host)) {
            if byHost[roster.host] == nil { hosts.append(roster.host) }
            byHost[roster.host, default: []].append(roster)
        }
        var planned: [PlannedFile] = []
        for host in hosts {
            for renderer in hostRenderers {
                let path = "\(host)/\(renderer.name)"
                let made = byHost[host, default: []].lazy.compactMap { roster in
                    renderer.render(roster, in: RenderContext(roster: roster, publicURL: publicURL, documentPath: path))
                }.first
                let bytes: Data
                if let made {
                    bytes = Data(made)
                } else if previous.paths.contains(path),
                    let kept = existing.read(path, limit: Self.readLimit, files: files)
                {
                    bytes = kept.bytes
                } else {
                    continue
                }
                planned.append(PlannedFile(path: path, source: bytes, digest: ContentDigest(bytes), isGzip: false))
            }
        }
        return planned
    }

    /// `files`, each followed by its `.gz` when ``gzip``.
    private func withGzip(_ files: [PlannedFile]) -> [PlannedFile] {
        files.flatMap { file in
            [file]
                + (gzip
                    ? [PlannedFile(path: file.path + ".gz", source: file.source, digest: file.digest, isGzip: true)]
                    : [])
        }
    }

    /// `plan` without the files that are not ours: a file at a planned path that the manifest does not list is
    /// left alone and reported, unless it already holds the wanted bytes (a tree exported before the manifest
    /// existed), which is adopted.
    func ours(
        _ plan: [PlannedFile], previous: ExportManifest, existing: inout ExistingFiles, files: FileSystem,
        into report: inout ExportReport
    ) -> [PlannedFile] {
        plan.filter { file in
            guard !previous.paths.contains(file.path), files.exists(file.path) else { return true }
            if file.matches(existing.read(file.path, limit: Self.readLimit, files: files)?.bytes) { return true }
            report.add(
                ExportError(
                    .foreignFile, path: path(file.path),
                    "\(path(file.path)) was not written by showcased, so it is left alone and not exported there; "
                        + "move it away to let showcased write it"))
            return false
        }
    }
}
