import FoundationEssentials

/// The third phase of an export pass: performs what reconciling decided, in order and durably — each file staged,
/// every staged file flushed by one syncfs(2), then renamed over its target; stale files removed; the directories
/// that changed flushed — and records in the ``ExportPass`` what came of it. Its only decisions are about failures:
/// a file that could not be written is marked and reported, and its previous version stays.
extension ExportWriter {
    /// Writes the files `operations` says to write: stages each, flushes them (one syncfs, or with `flushingEach` an
    /// fsync per file, for a batch of one or two), then renames each over its target. Counts the files kept as
    /// unchanged and leaves what it knows in the pass's memory; marks and reports the writes that failed.
    func apply(_ operations: inout ExportOperations, pass: inout ExportPass, flushingEach: Bool) {
        let files = pass.snapshot.files
        var staged: [(index: Int, temporary: String)] = []
        for index in operations.files.indices {
            let path = operations.files[index].path
            if case .keep(let known) = operations.actions[index] {
                pass.report.unchanged += 1
                if let known { pass.remembered[path] = known }
                continue
            }
            guard let bytes = operations.files[index].bytes() else {
                fail(&operations.files[index], FileSystem.Failure(reason: "gzip could not compress it"), pass: &pass)
                continue
            }
            switch files.stage(bytes, for: path) {
            case .success(let temporary): staged.append((index, temporary))
            case .failure(let failure): fail(&operations.files[index], failure, pass: &pass)
            }
        }
        if !staged.isEmpty, flushingEach || files.syncFileSystem() != nil {
            // One by one (a small batch, or syncfs failed with a writeback error: find out which files are safe).
            staged = staged.filter { index, temporary in
                guard let failure = files.sync(file: temporary) else { return true }
                files.discard(temporary)
                fail(&operations.files[index], failure, pass: &pass)
                return false
            }
        }
        for (index, temporary) in staged {
            if let failure = files.commit(temporary, to: operations.files[index].path) {
                fail(&operations.files[index], failure, pass: &pass)
            } else {
                pass.report.written += 1
            }
        }
    }

    /// Records that writing `file` failed: the previous version, if any, stays.
    private func fail(_ file: inout PlannedFile, _ failure: FileSystem.Failure, pass: inout ExportPass) {
        file.failed = true
        if let planted = failure.unexpected {
            pass.report.add(ExportError(.unexpectedEntry, path: planted, failure.reason))
            return
        }
        let target = path(file.path)
        pass.report.add(
            ExportError(
                .writeFailed, path: target,
                "could not write \(target): \(failure.reason); the previous version, if any, stays in place "
                    + "(free some space or fix the permissions, then export again)"))
    }

    /// Removes each of `stale` (listed files no longer wanted, in path order); the ones gone, removed now or
    /// before. One that could not be removed is reported, stays listed and is retried on the next export.
    func remove(_ stale: [String], pass: inout ExportPass) -> Set<String> {
        var gone = Set<String>()
        for relative in stale {
            switch pass.snapshot.files.remove(relative) {
            case .removed:
                pass.report.removed += 1
                gone.insert(relative)
            case .alreadyGone: gone.insert(relative)
            case .failed(let failure):
                pass.report.add(
                    ExportError(
                        failure.unexpected == nil ? .removeFailed : .unexpectedEntry,
                        path: failure.unexpected ?? path(relative),
                        "could not remove \(path(relative)), which showcased exported earlier and no longer needs: "
                            + "\(failure.reason); it stays listed and is retried on the next export"))
            }
        }
        return gone
    }

    /// Writes the manifest as listed now, less `dropped` and plus `unlisted`, when either is not empty.
    func relist(dropping dropped: Set<String>, adding unlisted: Set<String>, pass: inout ExportPass) {
        guard !dropped.isEmpty || !unlisted.isEmpty else { return }
        var final = pass.listed
        final.paths.subtract(dropped)
        final.paths.formUnion(unlisted)
        pass.manifest = nil
        guard let failure = pass.snapshot.files.writeAtomically(final.encoded(), to: ExportManifest.fileName) else {
            return
        }
        pass.report.errors.append(
            manifestFailed(
                "update", failure,
                "files removed in this export stay listed, which is harmless, until a later export succeeds"))
    }

    /// The error for a manifest that could not be written (`verb`: "write" or "update"), saying what follows.
    func manifestFailed(_ verb: String, _ failure: FileSystem.Failure, _ consequence: String) -> ExportError {
        let manifest = path(ExportManifest.fileName)
        return ExportError(
            .writeFailed, path: manifest,
            "could not \(verb) the export manifest \(manifest): \(failure.reason); \(consequence)")
    }

    /// One more flush makes the renames and removals durable (instead of an fsync per directory). A pass that changed
    /// nothing flushes nothing: syncfs also waits for every other program's writes to the file system.
    func flush(_ files: FileSystem) {
        guard files.hasChangedDirectories else { return }
        if files.syncFileSystem() == nil { files.forgetChangedDirectories() }
        files.syncDirectories()
    }
}
