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
/// - With ``gzip``, `NAME.json.gz` (the same bytes, deterministic gzip) sits beside every document and
///   `index.json`, for nginx's `gzip_static`.
/// - **Nothing it did not write is touched**: `v1/.showcase-manifest` lists every file it wrote; only those are
///   ever replaced or removed. A foreign file where a document belongs is reported, not overwritten.
/// - Documents of rosters no longer configured (or ``ExportRoster/Content-swift.enum/absent``) are removed; a
///   roster in a diagnostic (``ExportRoster/Content-swift.enum/keepLastGood(revision:)``) keeps its documents
///   byte for byte.
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
    /// configured, and its documents are removed).
    public func export(_ rosters: [ExportRoster]) -> ExportReport {
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

        var plan = plan(rosters, previous: previous, files: &files, errors: &report.errors)

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
        for index in plan.indices {
            let target = path(plan[index].path)
            if plan[index].matches(files.readRegularFile(target, limit: Self.readLimit)) {
                report.unchanged += 1
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
        // One more flush makes the renames and removals durable (instead of an fsync per directory).
        if files.syncFileSystem(containing: root) == nil { files.forgetChangedDirectories() }
        files.syncDirectories()
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
        _ rosters: [ExportRoster], previous: ExportManifest, files: inout FileSystem, errors: inout [ExportError]
    ) -> [PlannedFile] {
        var documents: [String: Data] = [:]
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
                    let bytes: Data?
                    switch roster.content {
                    case .current: bytes = current[platform]
                    case .keepLastGood:
                        bytes =
                            previous.paths.contains(relative)
                            ? files.readRegularFile(path(relative), limit: Self.readLimit) : nil
                    case .absent: bytes = nil
                    }
                    guard let bytes else { continue }
                    documents[relative] = bytes
                    entries.append(
                        ExportIndexEntry(
                            path: relative, host: roster.host, storefront: roster.storefront, platform: platform,
                            language: roster.language, state: roster.state, revision: roster.revision,
                            fetchedAt: roster.fetchedAt, error: roster.error))
                }
            }
        }
        let index = ExportIndex(documents: entries, diagnostics: diagnostics).encoded()
        var plan: [PlannedFile] = []
        for (relative, bytes) in documents.sorted(by: { $0.key < $1.key }) + [("index.json", index)] {
            plan.append(PlannedFile(path: relative, source: bytes, isGzip: false))
            if gzip { plan.append(PlannedFile(path: relative + ".gz", source: bytes, isGzip: true)) }
        }
        return plan.filter { file in
            guard !previous.paths.contains(file.path), files.exists(path(file.path)) else { return true }
            // Not ours. Identical bytes (a tree exported before the manifest existed) are adopted; anything else
            // is left alone.
            if file.matches(files.readRegularFile(path(file.path), limit: Self.readLimit)) { return true }
            errors.append(
                ExportError(
                    .foreignFile, path: path(file.path),
                    "\(path(file.path)) was not written by showcased, so it is left alone and not exported there; "
                        + "move it away to let showcased write it"))
            return false
        }
    }
}
