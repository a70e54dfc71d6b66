import Foundation
import ShowcaseCore

/// Brings `<directory>/v1/` to exactly the documents a set of rosters calls for, and says what it did.
///
/// This is the export's one entry point: the daemon hands it every configured roster's ``ExportRoster`` after a
/// new revision, a reload or `Admin.Export`, and logs the ``ExportReport``. The rules it keeps:
///
/// - **Only changed bytes are written**, each atomically (a temporary file in the same directory, flushed to
///   disk, renamed over the old one; then the renames flushed), so an unchanged document keeps its mtime and
///   nginx its ETag, and a reader never sees half a file. The flushes are one syncfs(2) per export, not an fsync
///   per file: on ext4 each fsync is a journal commit (~4 ms), which for 173 storefronts × 2 platforms, with
///   their `.gz`, would take seconds.
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

    /// A writer for `directory` (absolute, as the configuration resolved it).
    public init(directory: String, gzip: Bool = true) {
        self.directory = directory
        self.gzip = gzip
    }

    /// The tree's root, `<directory>/v1`.
    public var root: String { (directory as NSString).appendingPathComponent("v1") }

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
        var report = ExportReport(directory: directory)
        var files = FileSystem()
        if let failure = files.makeDirectories(root, below: nil) {
            report.errors.append(
                ExportError(
                    .directoryUnusable, path: root,
                    "cannot use the export directory \(root): \(failure); create it writable by the daemon's user, "
                        + "or point export.directory elsewhere"))
            return report
        }
        let manifestPath = path(ExportManifest.fileName)
        let previous = ExportManifest(parsing: files.readRegularFile(manifestPath, limit: Self.readLimit) ?? Data())

        var existing = ExistingFiles(root: root, memory: memory)
        var plan = plan(rosters, previous: previous, existing: &existing, files: &files, errors: &report.errors)

        // List every file before it can first exist, so a crash never leaves one of ours unlisted.
        let listed = ExportManifest(paths: previous.paths.union(plan.map(\.path)))
        if listed != previous, let failure = files.writeAtomically(listed.encoded(), to: manifestPath) {
            report.errors.append(
                ExportError(
                    .writeFailed, path: manifestPath,
                    "could not write the export manifest \(manifestPath): \(failure); nothing was exported "
                        + "(free some space or fix the directory's permissions, then export again)"))
            return report
        }

        // Stage every changed file, flush them all at once, then rename each over its target: documents first,
        // index.json last.
        var staged: [(index: Int, temporary: String)] = []
        var remembered: [String: ExportMemory.File] = [:]
        for index in plan.indices {
            let target = path(plan[index].path)
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
                fail(&plan[index], "gzip could not compress it", into: &report)
                continue
            }
            if let failure = files.makeDirectories((target as NSString).deletingLastPathComponent, below: root) {
                fail(&plan[index], failure, into: &report)
                continue
            }
            switch files.stage(bytes, for: target) {
            case .success(let temporary): staged.append((index, temporary))
            case .failure(let failure): fail(&plan[index], failure.reason, into: &report)
            }
        }
        if !staged.isEmpty, files.syncFileSystem(containing: root) != nil {
            // syncfs failed (a writeback error): find out file by file which ones are safe to publish.
            staged = staged.filter { index, temporary in
                guard let failure = FileSystem.sync(file: temporary) else { return true }
                files.discard(temporary)
                fail(&plan[index], failure, into: &report)
                return false
            }
        }
        for (index, temporary) in staged {
            if let failure = files.commit(temporary, to: path(plan[index].path)) {
                fail(&plan[index], failure, into: &report)
            } else {
                report.written += 1
            }
        }
        files.releaseReplaced()

        let wanted = Set(plan.map(\.path))
        var kept = Set<String>()
        for stale in previous.paths.subtracting(wanted).sorted() {
            let target = path(stale)
            switch files.remove(target, below: root) {
            case .removed: report.removed += 1
            case .alreadyGone: break
            case .failed(let failure):
                kept.insert(stale)
                report.errors.append(
                    ExportError(
                        .removeFailed, path: target,
                        "could not remove \(target), which showcased exported earlier and no longer needs: "
                            + "\(failure); it stays listed and is retried on the next export"))
            }
        }

        // A file that failed to be written for the first time does not exist: it leaves the list again.
        let absentAfterFailure = plan.filter { $0.failed && !previous.paths.contains($0.path) }.map(\.path)
        let final = ExportManifest(paths: wanted.union(kept).subtracting(absentAfterFailure))
        if final != listed, let failure = files.writeAtomically(final.encoded(), to: manifestPath) {
            report.errors.append(
                ExportError(
                    .writeFailed, path: manifestPath,
                    "could not update the export manifest \(manifestPath): \(failure); files removed in this export "
                        + "stay listed, which is harmless, until a later export succeeds"))
        }
        // One more flush makes the renames and removals durable (instead of an fsync per directory). A pass that
        // changed nothing flushes nothing: syncfs also waits for every other program's writes to the file system.
        if files.hasChangedDirectories {
            if files.syncFileSystem(containing: root) == nil { files.forgetChangedDirectories() }
            files.syncDirectories()
        }
        report.filesRead = existing.readCount
        memory = ExportMemory(root: root, files: remembered)
        return report
    }

    /// Records that writing `file` failed: the previous version, if any, stays.
    private func fail(_ file: inout PlannedFile, _ failure: String, into report: inout ExportReport) {
        file.failed = true
        let target = path(file.path)
        report.errors.append(
            ExportError(
                .writeFailed, path: target,
                "could not write \(target): \(failure); the previous version, if any, stays in place "
                    + "(free some space or fix the permissions, then export again)"))
    }

    /// `relative` (to `v1/`) as an absolute path.
    func path(_ relative: String) -> String { root + "/" + relative }

    /// Every file the tree should hold after this export, documents first and `index.json` last (so a reader
    /// that follows the index finds the documents already there); foreign files and unsafe names dropped with an
    /// error.
    private func plan(
        _ rosters: [ExportRoster], previous: ExportManifest, existing: inout ExistingFiles, files: inout FileSystem,
        errors: inout [ExportError]
    ) -> [PlannedFile] {
        var documents: [String: PlannedFile] = [:]
        var entries: [ExportIndexEntry] = []
        var diagnostics: [ExportDiagnostic] = []
        for roster in rosters {
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
            let current = Dictionary(uniqueKeysWithValues: roster.documents.map { ($0.platform, $0.encoded()) })
            for platform in Platform.allCases {
                for relative in roster.paths(for: platform) {
                    guard documents[relative] == nil else {
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
                    case .absent: document = nil
                    }
                    guard let document else { continue }
                    documents[relative] = document
                    entries.append(
                        ExportIndexEntry(
                            path: relative, host: roster.host, storefront: roster.storefront, platform: platform,
                            language: roster.language, state: roster.state, revision: revision,
                            fetchedAt: roster.fetchedAt, error: roster.error))
                }
            }
        }
        let index = ExportIndex(documents: entries, diagnostics: diagnostics).encoded()
        var plan: [PlannedFile] = []
        let indexFile = PlannedFile(path: "index.json", source: index, digest: ContentDigest(index), isGzip: false)
        for document in documents.values.sorted(by: { $0.path < $1.path }) + [indexFile] {
            plan.append(document)
            if gzip {
                plan.append(
                    PlannedFile(
                        path: document.path + ".gz", source: document.source, digest: document.digest, isGzip: true))
            }
        }
        return plan.filter { file in
            guard !previous.paths.contains(file.path), files.exists(path(file.path)) else { return true }
            // Not ours. Identical bytes (a tree exported before the manifest existed) are adopted; anything else
            // is left alone.
            if file.matches(existing.read(file.path, limit: Self.readLimit, files: files)?.bytes) { return true }
            errors.append(
                ExportError(
                    .foreignFile, path: path(file.path),
                    "\(path(file.path)) was not written by showcased, so it is left alone and not exported there; "
                        + "move it away to let showcased write it"))
            return false
        }
    }
}
