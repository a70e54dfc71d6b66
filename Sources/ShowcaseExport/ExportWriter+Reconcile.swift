import FoundationEssentials
import ShowcaseCore

/// The second phase of an export pass: the ``ExportPlan`` against one snapshot of the tree (``ExportSnapshot``),
/// turned into ``ExportOperations`` — write, keep, remove, refuse — with nothing written. This is where the bytes
/// are rendered (a document's revision and a kept file's bytes are the tree's), where a foreign file at a wanted
/// path is refused, and where a file is found to hold its bytes already: by one `lstat` and a digest when
/// ``ExportMemory`` vouches for it, else by reading it.
extension ExportWriter {
    /// The snapshot a pass reconciles against: the tree opened, the manifest trusted from `memory` while its
    /// identity holds or read once; nil, with the error in `report`, when the directory cannot be used.
    func snapshot(memory: ExportMemory, into report: inout ExportReport) -> ExportSnapshot? {
        let files: FileSystem
        do {
            files = try FileSystem(directory: directory)
        } catch {
            report.errors.append(
                ExportError(
                    error.isUnexpectedEntry ? .unexpectedEntry : .directoryUnusable, path: root,
                    "cannot use the export directory \(root): \(error.message); create it writable by the daemon's "
                        + "user, or point export.directory elsewhere"))
            return nil
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
        return ExportSnapshot(
            files: files, existing: ExistingFiles(root: root, memory: memory), previous: previous,
            manifestTrusted: manifestTrusted, manifest: knownManifest)
    }

    /// The plan's rendered rosters (their icons limited to `available`) and host files, rendered against the tree and
    /// sorted into operations.
    func reconcile(_ plan: ExportPlan, available: Set<String>, snapshot: inout ExportSnapshot) -> ExportOperations {
        var files: [String: PlannedFile] = [:]
        var rendered = ExportOperations()
        for rendering in plan.rendering {
            render(rendering, available: available, snapshot: &snapshot, files: &files, into: &rendered)
        }
        for file in render(plan.hostFiles, available: available, snapshot: &snapshot) where files[file.path] == nil {
            files[file.path] = file
        }
        // In path order, so the folders are visited one after another.
        let wanted = withGzip(files.keys.sorted().compactMap { files[$0] })
        var operations = self.operations(for: wanted, snapshot: &snapshot)
        operations.entries = rendered.entries
        operations.rendered = rendered.rendered
        operations.icons = rendered.icons
        return operations
    }

    /// The files the manifest lists that nothing in `plan` (a pass's first, of every configured roster) wants, in
    /// path order: not one `rendered` from it (nor its `.gz`), not one of the `reused` rosters' files, not index.json,
    /// no icon a roster references or a document kept byte for byte lists. Worked out once the changed files are
    /// published and the reused ones checked, so a change does not wait for a look at the whole list; the icons no
    /// document references after all are added to it then.
    func stale(
        _ plan: ExportPlan, rendered: [PlannedFile], reused: [String: ExportMemory.File], snapshot: ExportSnapshot
    ) -> [String] {
        var wanted = Set(rendered.map(\.path))
        wanted.formUnion(Self.iconsInKeptDocuments(plan.rendering.map(\.roster), planned: rendered))
        wanted.formUnion(plan.icons.map(\.path))
        wanted.formUnion(indexPaths)
        return snapshot.previous.paths.filter { reused[$0] == nil && !wanted.contains($0) }.sorted()
    }

    /// `index.json`, and its `.gz` when ``gzip``.
    var indexPaths: [String] { ["index.json"] + (gzip ? ["index.json.gz"] : []) }

    /// Renders the documents of `rendering` and the files beside them into `files`, with their index entries, what
    /// they were rendered from and the icons they reference in `operations`.
    private func render(
        _ rendering: ExportPlan.Rendering, available: Set<String>, snapshot: inout ExportSnapshot,
        files: inout [String: PlannedFile], into operations: inout ExportOperations
    ) {
        var roster = rendering.roster.keepingIcons(in: available)
        if case .deferred(let now, let apps) = roster.content { roster.content = .latest(apps: apps(), now: now) }
        let rosterIcons = Self.referencedIcons([roster])
        operations.icons.formUnion(rosterIcons)
        var made: [String: ExportMemory.RenderedFile] = [:]
        let current = Dictionary(uniqueKeysWithValues: roster.documents.map { ($0.platform, $0.encoded()) })
        for planned in rendering.documents {
            guard let document = render(planned, of: roster, current: current, snapshot: &snapshot) else { continue }
            files[planned.path] = document
            made[planned.path] = ExportMemory.RenderedFile(
                digest: document.digest, revision: document.revision, revisedAt: document.revisedAt)
            for file in rendered(beside: planned, of: roster, document: document, snapshot: &snapshot) {
                files[file.path] = file
                made[file.path] = ExportMemory.RenderedFile(digest: file.digest)
            }
            operations.entries.append(
                roster.indexEntry(
                    at: planned.path, platform: planned.platform, revision: roster.revision ?? document.revision))
        }
        if let fingerprint = roster.fingerprint, case .latest = roster.content {
            operations.rendered[rendering.key] = ExportMemory.Rendered(
                fingerprint: fingerprint, settings: settingsKey, files: made, icons: rosterIcons)
        }
    }

    /// The document `planned` of `roster`: `current`'s bytes for current content; for the latest apps, revised
    /// against the document on disk (its remembered revision, or its header); for a roster in a diagnostic, the
    /// listed file byte for byte (nil when there is none).
    private func render(
        _ planned: ExportPlan.Document, of roster: ExportRoster, current: [Platform: Data],
        snapshot: inout ExportSnapshot
    ) -> PlannedFile? {
        let relative = planned.path
        switch roster.content {
        case .current(let revision, let revisedAt, _):
            return current[planned.platform].map {
                PlannedFile(
                    path: relative, source: $0, digest: ContentDigest($0), isGzip: false, revision: revision,
                    revisedAt: revisedAt)
            }
        case .latest(let apps, let now):
            let files = snapshot.files
            let earlier =
                snapshot.existing.remembered(relative, files: files).flatMap(PreviousDocument.init(remembered:))
                ?? snapshot.existing.read(relative, limit: Self.readLimit, files: files).flatMap {
                    PreviousDocument(bytes: $0.bytes)
                }
            let revised = roster.revisedDocument(
                planned.platform, apps: apps[planned.platform] ?? [], now: now, previous: earlier)
            return PlannedFile(
                path: relative, source: revised.bytes, digest: revised.digest, isGzip: false,
                revision: revised.revision, revisedAt: revised.revisedAt)
        case .keepLastGood:
            let kept = kept(relative, snapshot: &snapshot)
            let header = kept.flatMap(ExportDocument.revision(in:))
            return kept.map {
                PlannedFile(
                    path: relative, source: $0, digest: ContentDigest($0), isGzip: false, revision: header?.revision,
                    revisedAt: header?.revisedAt)
            }
        case .absent, .deferred: return nil
        }
    }

    /// The bytes of the listed file at `relative`, for a file kept byte for byte; nil when it is not listed or not
    /// there.
    private func kept(_ relative: String, snapshot: inout ExportSnapshot) -> Data? {
        guard snapshot.previous.paths.contains(relative) else { return nil }
        return snapshot.existing.read(relative, limit: Self.readLimit, files: snapshot.files)?.bytes
    }

    /// The files ``renderers`` render beside `planned`: from the document itself when the roster is current, else
    /// (a roster in a diagnostic keeps its documents) the files written earlier, byte for byte.
    private func rendered(
        beside planned: ExportPlan.Document, of roster: ExportRoster, document: PlannedFile,
        snapshot: inout ExportSnapshot
    ) -> [PlannedFile] {
        var exported: ExportDocument?
        switch roster.content {
        case .current(_, _, let apps), .latest(let apps, _):
            exported = ExportDocument(
                host: roster.host, storefront: roster.storefront, platform: planned.platform,
                language: roster.language, revision: document.revision ?? 1,
                revisedAt: document.revisedAt ?? Date(timeIntervalSince1970: 0), apps: apps[planned.platform] ?? [],
                labels: roster.labels)
        case .keepLastGood, .absent, .deferred: exported = nil
        }
        let context = RenderContext(roster: roster, publicURL: publicURL, documentPath: planned.path)
        return zip(renderers, planned.beside).compactMap { renderer, path in
            let bytes: Data
            if let exported {
                bytes = Data(renderer.render(exported, in: context))
            } else if let kept = kept(path, snapshot: &snapshot) {
                bytes = kept
            } else {
                return nil
            }
            return PlannedFile(path: path, source: bytes, digest: ContentDigest(bytes), isGzip: false)
        }
    }

    /// The host files, each rendered from the first of its rosters (icons limited to `available`) the renderer has
    /// something to say for; a host it says nothing for yet keeps the file written earlier.
    private func render(_ hostFiles: [ExportPlan.HostFile], available: Set<String>, snapshot: inout ExportSnapshot)
        -> [PlannedFile]
    {
        hostFiles.compactMap { file in
            let made = file.rosters.lazy.compactMap { roster in
                let shown = roster.keepingIcons(in: available)
                return file.renderer.render(
                    shown, in: RenderContext(roster: shown, publicURL: publicURL, documentPath: file.path))
            }.first
            guard let bytes = made.map({ Data($0) }) ?? kept(file.path, snapshot: &snapshot) else { return nil }
            return PlannedFile(path: file.path, source: bytes, digest: ContentDigest(bytes), isGzip: false)
        }
    }

    /// `wanted` against the tree: a file at a wanted path that the manifest does not list is refused and reported,
    /// unless it already holds the wanted bytes (a tree exported before the manifest existed), which is adopted;
    /// every other file is kept when it holds its bytes, written when not.
    func operations(for wanted: [PlannedFile], snapshot: inout ExportSnapshot) -> ExportOperations {
        var operations = ExportOperations()
        let files = snapshot.files
        for file in wanted {
            if !snapshot.previous.paths.contains(file.path), files.exists(file.path),
                !file.matches(snapshot.existing.read(file.path, limit: Self.readLimit, files: files)?.bytes)
            {
                operations.refused.append(
                    ExportError(
                        .foreignFile, path: path(file.path),
                        "\(path(file.path)) was not written by showcased, so it is left alone and not exported there; "
                            + "move it away to let showcased write it"))
                continue
            }
            operations.append(file, action(for: file, snapshot: &snapshot))
        }
        return operations
    }

    /// Whether `file` must be written: not when the remembered file is still there with the wanted digest, or the
    /// file read holds the wanted bytes (remembered when it has settled).
    private func action(for file: PlannedFile, snapshot: inout ExportSnapshot) -> ExportOperations.Action {
        if let known = snapshot.existing.remembered(file.path, files: snapshot.files) {
            // The file is as this writer last saw it: its digest says whether it holds what is wanted.
            return known.digest == file.digest ? .keep(remembering: known) : .write
        }
        if let read = snapshot.existing.take(file.path, limit: Self.readLimit, files: snapshot.files),
            file.matches(read.bytes)
        {
            return .keep(remembering: read.settled ? file.remembered(as: read.identity) : nil)
        }
        return .write
    }

    /// The candidates ``plan(_:known:fetched:memory:reusing:)`` left unrendered, sorted: those whose every file (and
    /// `.gz`) is still as the last pass left it — one `lstat` each, as ``ExportMemory`` trusts — with those files,
    /// and the rosters of the others, to render.
    func verify(_ candidates: [ExportPlan.Candidate], snapshot: ExportSnapshot) -> (
        reused: [ExportPlan.Candidate], files: [String: ExportMemory.File], changed: [ExportRoster]
    ) {
        var reused: [ExportPlan.Candidate] = []
        var known: [String: ExportMemory.File] = [:]
        known.reserveCapacity(snapshot.existing.rememberedCount)
        var changed: [ExportRoster] = []
        for candidate in candidates {
            if let found = stillAsLeft(candidate.memo, snapshot: snapshot) {
                reused.append(candidate)
                for (path, file) in found { known[path] = file }
            } else {
                changed.append(candidate.roster)
            }
        }
        return (reused, known, changed)
    }

    /// The files of `memo` (and their `.gz`) as remembered, when every one is still as the last pass left it (one
    /// `lstat` each, as ``ExportMemory`` trusts); nil when any is not.
    private func stillAsLeft(_ memo: ExportMemory.Rendered, snapshot: ExportSnapshot)
        -> [(path: String, file: ExportMemory.File)]?
    {
        var known: [(path: String, file: ExportMemory.File)] = []
        known.reserveCapacity(memo.files.count * (gzip ? 2 : 1))
        for (path, file) in memo.files {
            guard let found = snapshot.existing.stillHolds(path, files: snapshot.files), found.digest == file.digest
            else { return nil }
            known.append((path, found))
            if gzip {
                let compressed = path + ".gz"
                guard let found = snapshot.existing.stillHolds(compressed, files: snapshot.files),
                    found.digest == file.digest
                else { return nil }
                known.append((compressed, found))
            }
        }
        return known
    }

    /// `files`, each followed by its `.gz` when ``gzip``.
    func withGzip(_ files: [PlannedFile]) -> [PlannedFile] {
        files.flatMap { file in
            [file]
                + (gzip
                    ? [PlannedFile(path: file.path + ".gz", source: file.source, digest: file.digest, isGzip: true)]
                    : [])
        }
    }
}
