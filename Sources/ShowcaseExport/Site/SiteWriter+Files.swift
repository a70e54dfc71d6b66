import Dispatch
import FoundationEssentials
import ShowcaseCore

extension SiteWriter {
    /// `memo` brought up to date when the file at `path` (and its `.gz`) still holds the bytes it remembers: one
    /// `fstatat` each when the identities are the remembered ones, else a read and a digest; nil when it does not.
    func stillHolds(_ path: String, _ memo: SiteMemory.File, pass: Pass) -> SiteMemory.File? {
        var memo = memo
        if let known = memo.identity, pass.files.rememberedIdentity(of: path) == known,
            !pass.gzip || memo.gzipIdentity.map({ pass.files.rememberedIdentity(of: path + ".gz") == $0 }) == true
        {
            return memo
        }
        guard let identity = pass.files.identity(of: path) else { return nil }
        if memo.identity != identity {
            guard let read = pass.files.read(path, limit: ExportWriter.readLimit),
                ContentDigest(read.bytes) == memo.digest
            else { return nil }
            memo.identity = read.identity.isSettled(now: pass.now) ? read.identity : nil
        }
        guard pass.gzip else { return memo }
        let compressed = path + ".gz"
        guard let gzipIdentity = pass.files.identity(of: compressed) else { return nil }
        if memo.gzipIdentity != gzipIdentity {
            guard let read = pass.files.read(compressed, limit: ExportWriter.readLimit),
                let inflated = Gzip.decompress(read.bytes, limit: max(0, memo.digest.count)),
                ContentDigest(inflated) == memo.digest
            else { return nil }
            memo.gzipIdentity = read.identity.isSettled(now: pass.now) ? read.identity : nil
        }
        return memo
    }

    /// Lists `paths` in the manifest before any of them can first exist; false (with the error reported) when the
    /// manifest could not be written, and nothing may be written then.
    func list(_ paths: [String], in listed: inout ExportManifest, pass: Pass, report: inout ExportReport) -> Bool {
        var gained = false
        for path in paths where listed.paths.insert(path).inserted { gained = true }
        guard gained, let failure = pass.files.writeAtomically(listed.encoded(), to: ExportManifest.fileName) else {
            return true
        }
        report.add(
            ExportError(
                .writeFailed, path: pass.path(ExportManifest.fileName),
                "could not write the site manifest \(pass.path(ExportManifest.fileName)): \(failure.reason); the "
                    + "site was not updated (free some space or fix the directory's permissions, then export again)"))
        return false
    }

    /// Writes every file of `plan` whose bytes differ from the file's: a foreign file at its path is left alone and
    /// reported; each is staged, all flushed at once, then renamed into place. Leaves what it knows in `memory`.
    func publish(_ plan: inout [PlannedFile], pass: Pass, memory: inout SiteMemory, report: inout ExportReport) {
        observer?(plan.count)
        var staged: [(index: Int, temporary: String)] = []
        var changed: [Int] = []
        for index in plan.indices {
            let file = plan[index]
            let main = file.isGzip ? String(file.path.dropLast(3)) : file.path
            if let known = memory.files[main], known.digest == file.digest,
                let identity = file.isGzip ? known.gzipIdentity : known.identity,
                pass.files.identity(of: file.path) == identity
            {
                report.unchanged += 1
                continue
            }
            let read = pass.files.read(file.path, limit: ExportWriter.readLimit)
            if file.matches(read?.bytes), let read {
                report.unchanged += 1
                remember(file, identity: read.identity, pass: pass, memory: &memory)
                continue
            }
            if !pass.previous.paths.contains(file.path), pass.files.exists(file.path) {
                plan[index].failed = true
                report.add(
                    ExportError(
                        .foreignFile, path: pass.path(file.path),
                        "\(pass.path(file.path)) was not written by showcased, so it is left alone and the site "
                            + "page is not written there; move it away to let showcased write it"))
                continue
            }
            changed.append(index)
        }
        let contents = Self.bytes(of: changed.map { plan[$0] })
        for (index, bytes) in zip(changed, contents) {
            guard let bytes else { continue }
            switch pass.files.stage(bytes, for: plan[index].path) {
            case .success(let temporary): staged.append((index, temporary))
            case .failure(let failure): fail(&plan[index], failure, pass: pass, report: &report)
            }
        }
        if !staged.isEmpty, pass.files.syncFileSystem() != nil {
            staged = staged.filter { index, temporary in
                guard let failure = pass.files.sync(file: temporary) else { return true }
                pass.files.discard(temporary)
                fail(&plan[index], failure, pass: pass, report: &report)
                return false
            }
        }
        for (index, temporary) in staged {
            if let failure = pass.files.commit(temporary, to: plan[index].path) {
                fail(&plan[index], failure, pass: pass, report: &report)
            } else {
                report.written += 1
                let file = plan[index]
                let main = file.isGzip ? String(file.path.dropLast(3)) : file.path
                if file.isGzip {
                    memory.files[main]?.gzipIdentity = nil
                } else {
                    memory.files[main]?.identity = nil
                    memory.files[main]?.digest = file.digest
                }
            }
        }
        pass.files.releaseReplaced()
    }

    /// The bytes of `files`, compressed on every core (zlib is most of a pass's time otherwise).
    static func bytes(of files: [PlannedFile]) -> [Data?] {
        guard files.count > 1 else { return files.map { $0.bytes() } }
        let results = UnsafeMutableBufferPointer<Data?>.allocate(capacity: files.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize().deallocate() }
        nonisolated(unsafe) let shared = results
        DispatchQueue.concurrentPerform(iterations: files.count) { index in shared[index] = files[index].bytes() }
        return Array(results)
    }

    /// Records that `file` holds what was wanted, with `identity` when it has settled.
    private func remember(_ file: PlannedFile, identity: FileIdentity, pass: Pass, memory: inout SiteMemory) {
        let trusted = identity.isSettled(now: pass.now) ? identity : nil
        let main = file.isGzip ? String(file.path.dropLast(3)) : file.path
        var memo = memory.files[main] ?? SiteMemory.File(inputs: file.digest, digest: file.digest)
        memo.digest = file.digest
        if file.isGzip { memo.gzipIdentity = trusted } else { memo.identity = trusted }
        memory.files[main] = memo
    }

    private func fail(
        _ file: inout PlannedFile, _ failure: FileSystem.Failure, pass: Pass, report: inout ExportReport
    ) {
        file.failed = true
        if let planted = failure.unexpected {
            report.add(ExportError(.unexpectedEntry, path: planted, failure.reason))
            return
        }
        report.add(
            ExportError(
                .writeFailed, path: pass.path(file.path),
                "could not write \(pass.path(file.path)): \(failure.reason); the previous version, if any, stays in "
                    + "place (free some space or fix the permissions, then export again)"))
    }
}
