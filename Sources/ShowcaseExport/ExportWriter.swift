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
///   per file: on ext4 each fsync is a journal commit, and a pass's flushing must not grow with its files.
/// - **Unchanged files are known without reading them back** when the caller keeps an ``ExportMemory`` across
///   passes (the daemon does): a file whose inode, size, mtime and ctime are as the last pass saw them holds what
///   that pass saw, so one `lstat` and a digest of the wanted bytes decide. Anything else is read and compared.
/// - **What changed lands first**: rosters whose inputs differ from the last pass's are rendered and published
///   before the files of the unchanged ones are checked (`lstat`), so one developer's reload is not held back by
///   the whole tree; an unchanged roster with a file changed on disk is rendered and published after, in the same
///   pass, before `index.json`.
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
    /// `export.site`: the static site written after the documents, from the same rosters; nil for none.
    public var site: SiteWriter?

    /// A writer for `directory` (absolute, as the configuration resolved it), writing each document's JSON and
    /// what `renderers` and `hostRenderers` render beside it.
    public init(
        directory: String, gzip: Bool = true, renderers: [any DocumentRenderer] = [],
        hostRenderers: [any HostFileRenderer] = [], publicURL: String = "/showcase/v1/", site: SiteWriter? = nil
    ) {
        self.site = site
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
        // Unchanged since the last pass left it, which listed every file it remembers.
        let manifestTrusted = knownManifest != nil
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
        // What changed is rendered and published first; the rosters whose inputs are as the last pass rendered them
        // are only checked after (``verify(_:existing:files:)``), so a change lands without waiting for a look at
        // every file of the tree.
        var planned = plan(shown, previous: previous, existing: &existing, files: files, errors: &report.errors)
        var documents = ours(planned.documents, previous: previous, existing: &existing, files: files, into: &report)

        // List every file before it can first exist, so a crash never leaves one of ours unlisted. The list only
        // grows here, so what it gained says whether it changed (a tree of 55,000 files is not compared whole).
        let indexPaths = ["index.json"] + (gzip ? ["index.json.gz"] : [])
        var listed = previous
        var added = Set<String>()
        let listing = list(
            documents.map(\.path) + icons.files.map(\.path) + indexPaths, in: &listed, added: &added, files: files)
        if !added.isEmpty { knownManifest = nil }
        if let failure = listing {
            report.errors.append(
                ExportError(
                    .writeFailed, path: path(manifestName),
                    "could not write the export manifest \(path(manifestName)): \(failure.reason); nothing was "
                        + "exported (free some space or fix the directory's permissions, then export again)"))
            return report
        }

        // Icons first, so a document never references one that is not there yet; one that could not be written is
        // left out of the documents, planned again without it.
        var remembered: [String: ExportMemory.File] = [:]
        publish(
            &icons.files, existing: &existing, files: files, flushingEach: false, remembered: &remembered,
            into: &report)
        let failedIcons = Set(icons.files.filter(\.failed).map(\.path))
        if !failedIcons.isEmpty {
            icons.missing.formUnion(failedIcons)
            shown = rosters.map { $0.keepingIcons(in: icons.available) }
            planned = plan(shown, previous: previous, existing: &existing, files: files, errors: &report.errors)
            documents = ours(planned.documents, previous: previous, existing: &existing, files: files, into: &report)
        }
        report.missingIcons = icons.missing

        // The changed rosters' documents and rendered files.
        publish(
            &documents, existing: &existing, files: files, flushingEach: false, remembered: &remembered, into: &report)

        // Then the unchanged rosters: one whose files are all as the last pass left them is reused as it is; one
        // with a file changed by someone else (edited, replaced, removed) is rendered now and published the same way.
        let checked = verify(planned.candidates, existing: existing, files: files)
        let reused = checked.files
        let reusedEntries = checked.reused.flatMap(\.entries)
        if !checked.changed.isEmpty {
            let again = plan(
                checked.changed, previous: previous, existing: &existing, files: files, errors: &report.errors,
                reusing: false)
            var more = ours(again.documents, previous: previous, existing: &existing, files: files, into: &report)
            if let failure = list(more.map(\.path), in: &listed, added: &added, files: files) {
                // Not listed, so not written: each stays as it is and its roster is rendered again next time.
                for index in more.indices { more[index].failed = true }
                report.errors.append(
                    ExportError(
                        .writeFailed, path: path(manifestName),
                        "could not write the export manifest \(path(manifestName)): \(failure.reason); the files of "
                            + "\(checked.changed.count) rosters changed by someone else stay as they are until a "
                            + "later export succeeds"))
            }
            if !added.isEmpty { knownManifest = nil }
            publish(
                &more, existing: &existing, files: files, flushingEach: false, remembered: &remembered, into: &report)
            planned.absorb(again)
            documents += more
        }
        report.rostersReused = checked.reused.count
        report.rostersRendered = planned.renderedCount
        report.unchanged += reused.count
        // The files of reused rosters are known to hold what they should: remembered as they are, never planned.
        remembered.merge(reused) { published, _ in published }

        // index.json, built from what the documents came to (so it lists only documents that exist as this pass
        // wrote or kept them, and a reader that follows it finds them there).
        let present = Set(documents.filter { !$0.failed && !$0.isGzip }.map(\.path))
        let index = ExportIndex(
            documents: planned.entries.filter { present.contains($0.path) } + reusedEntries,
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
        for stale in previous.paths.filter({ reused[$0] == nil && !plannedWanted.contains($0) }).sorted() {
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
        let dropped = gone.union(added.filter { reused[$0] == nil && !plannedWanted.contains($0) })
            .union(absentAfterFailure)
        var unlisted = plannedWanted.filter { !listed.paths.contains($0) }.subtracting(absentAfterFailure)
        // A reused roster's files are listed already: the last pass listed them in the manifest it left, and a
        // manifest changed since (someone edited it) was read again, so only then can one be missing.
        if !manifestTrusted { unlisted.formUnion(reused.keys.filter { !listed.paths.contains($0) }) }
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
        var siteMemory = memory.site
        if let site {
            site.write(
                shown, directory: directory, gzip: gzip, publicURL: publicURL, now: memory.clock.now,
                memory: &siteMemory, report: &report)
        } else if siteMemory.root != nil || memory.root == nil {
            // No site configured: one written earlier goes (checked once per process, then after a site pass).
            SiteWriter.removeSite(directory: directory, report: &report)
            siteMemory = SiteMemory()
        }
        // A roster any of whose files failed is rendered again next time, whatever its fingerprint.
        let failed = Set(
            (documents + indexFiles).filter(\.failed).map { $0.isGzip ? String($0.path.dropLast(3)) : $0.path })
        let rendered = planned.rendered.filter { _, memo in memo.files.keys.allSatisfy { !failed.contains($0) } }
        memory = ExportMemory(
            root: root, files: remembered, rendered: rendered, manifest: knownManifest, clock: memory.clock)
        memory.site = siteMemory
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
    /// have, and the diagnostics; unsafe names dropped with an error. With `reusing`, a roster whose inputs are
    /// the ones the last pass rendered is not rendered but left as a ``Plan/Candidate`` for
    /// ``verify(_:existing:files:)``.
    func plan(
        _ rosters: [ExportRoster], previous: ExportManifest, existing: inout ExistingFiles, files: FileSystem,
        errors: inout [ExportError], reusing: Bool = true
    ) -> Plan {
        var documents: [String: PlannedFile] = [:]
        /// The document paths of the candidates, which no other roster may export.
        var claimed = Set<String>()
        var candidates: [Plan.Candidate] = []
        var entries: [ExportIndexEntry] = []
        var diagnostics: [ExportDiagnostic] = []
        var memos: [String: ExportMemory.Rendered] = [:]
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
            let paths = Platform.allCases.flatMap { platform in roster.paths(for: platform).map { (platform, $0) } }
            if reusing, let memo = unchangedInputs(roster, key: key, paths: paths.map(\.1), existing: existing),
                paths.allSatisfy({ documents[$0.1] == nil && !claimed.contains($0.1) })
            {
                // Inputs as the last pass rendered them: nothing to render, its files checked after the changed
                // rosters' are published.
                claimed.formUnion(paths.map(\.1))
                let rosterEntries = paths.map { platform, relative in
                    roster.indexEntry(at: relative, platform: platform, revision: memo.files[relative]?.revision)
                }
                candidates.append(Plan.Candidate(roster: roster, memo: memo, entries: rosterEntries))
                memos[key] = memo
                referenced.formUnion(memo.icons)
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
                    guard documents[relative] == nil, !claimed.contains(relative) else {
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
                    entries.append(roster.indexEntry(at: relative, platform: platform, revision: revision))
                }
            }
            if let fingerprint = roster.fingerprint, case .latest = roster.content {
                memos[key] = ExportMemory.Rendered(
                    fingerprint: fingerprint, settings: settingsKey, files: made, icons: rosterIcons)
            }
        }
        if reusing {
            for file in hostFiles(rosters, previous: previous, existing: &existing, files: files)
            where documents[file.path] == nil {
                documents[file.path] = file
            }
        }
        // In path order, so the folders are visited one after another.
        return Plan(
            documents: withGzip(documents.keys.sorted().compactMap { documents[$0] }), candidates: candidates,
            entries: entries, diagnostics: diagnostics, rendered: memos, renderedCount: renderedCount,
            icons: referenced)
    }

    /// What ``plan(_:previous:existing:files:errors:reusing:)`` found: the files wanted, the index entries and
    /// diagnostics, what each roster's files were rendered from, and the rosters left unrendered.
    struct Plan {
        /// A roster whose inputs are the ones the last pass rendered its files from: reused when they are all still
        /// as that pass left them, rendered otherwise.
        struct Candidate {
            var roster: ExportRoster
            /// What the last pass rendered for it.
            var memo: ExportMemory.Rendered
            /// Its documents' lines of `index.json`, with the remembered revisions.
            var entries: [ExportIndexEntry]
        }

        /// The files to compare with the tree and write where they differ.
        var documents: [PlannedFile]
        /// The rosters not rendered, for ``ExportWriter/verify(_:existing:files:)``.
        var candidates: [Candidate]
        /// The rendered documents' lines of `index.json`.
        var entries: [ExportIndexEntry]
        var diagnostics: [ExportDiagnostic]
        var rendered: [String: ExportMemory.Rendered]
        var renderedCount: Int
        /// The icons the documents of current rosters reference, rendered now or reused.
        var icons: Set<String>

        /// Takes in what a plan of some of its candidates, rendered after all, came to (their diagnostics are
        /// listed already).
        mutating func absorb(_ other: Plan) {
            documents += other.documents
            entries += other.entries
            rendered.merge(other.rendered) { _, rendered in rendered }
            renderedCount += other.renderedCount
            icons.formUnion(other.icons)
        }
    }

    /// The candidates ``plan(_:previous:existing:files:errors:reusing:)`` left unrendered, sorted: those whose every
    /// file (and `.gz`) is still as the last pass left it — one `lstat` each, as ``ExportMemory`` trusts — with
    /// those files, and the rosters of the others, to render.
    func verify(_ candidates: [Plan.Candidate], existing: ExistingFiles, files: FileSystem) -> (
        reused: [Plan.Candidate], files: [String: ExportMemory.File], changed: [ExportRoster]
    ) {
        var reused: [Plan.Candidate] = []
        var known: [String: ExportMemory.File] = [:]
        known.reserveCapacity(existing.rememberedCount)
        var changed: [ExportRoster] = []
        for candidate in candidates {
            if let found = stillAsLeft(candidate.memo, existing: existing, files: files) {
                reused.append(candidate)
                for (path, file) in found { known[path] = file }
            } else {
                changed.append(candidate.roster)
            }
        }
        return (reused, known, changed)
    }

    /// Lists `paths` in `listed`, those it gains also in `added`, and writes the manifest when it gained any, before
    /// any of them can first exist; the failure when it could not be written.
    private func list(
        _ paths: [String], in listed: inout ExportManifest, added: inout Set<String>, files: FileSystem
    ) -> FileSystem.Failure? {
        var gained = false
        for path in paths where listed.paths.insert(path).inserted {
            added.insert(path)
            gained = true
        }
        guard gained else { return nil }
        return files.writeAtomically(listed.encoded(), to: ExportManifest.fileName)
    }

    /// The settings that shape every rendered file, compared with the ones a remembered roster was rendered with.
    private var settingsKey: [String] {
        [gzip ? "gzip" : "plain", publicURL] + renderers.map(\.suffix)
    }

    /// What the last pass rendered for `roster`, when its inputs are the ones it was rendered from: the roster's
    /// fingerprint and the writer's settings are the same, and so are its document paths (a language that became
    /// the storefront's default adds one). Only for current content: a roster in a diagnostic keeps its files by
    /// reading them.
    private func unchangedInputs(_ roster: ExportRoster, key: String, paths: [String], existing: ExistingFiles)
        -> ExportMemory.Rendered?
    {
        switch roster.content {
        case .latest, .deferred: break
        case .current, .keepLastGood, .absent: return nil
        }
        guard let fingerprint = roster.fingerprint, let memo = existing.rendered[key], memo.fingerprint == fingerprint,
            memo.settings == settingsKey, !memo.files.isEmpty
        else { return nil }
        // Each document (`paths`) has one file of each renderer beside it, so equal counts and every path known mean
        // the same files.
        guard memo.files.count == paths.count * (1 + renderers.count), paths.allSatisfy({ memo.files[$0] != nil })
        else { return nil }
        return memo
    }

    /// The files of `memo` (and their `.gz`) as remembered, when every one is still as the last pass left it (one
    /// `lstat` each, as ``ExportMemory`` trusts); nil when any is not.
    private func stillAsLeft(_ memo: ExportMemory.Rendered, existing: ExistingFiles, files: FileSystem)
        -> [(path: String, file: ExportMemory.File)]?
    {
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
        return known
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
                apps: apps[platform] ?? [], labels: roster.labels)
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
