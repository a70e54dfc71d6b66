import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

extension FileCache {
    /// Removes the temporary files that writers killed mid-write (`kill -9`, a power cut) left behind, and
    /// returns how many it removed.
    ///
    /// Such a file never replaces a roster — the rename is what publishes a write — so it is harmless to
    /// readers, but nothing else would ever delete it. A temporary file names its writer's pid
    /// (`.<file>.<pid>.<random>.tmp`); only files whose writer is no longer running are removed, so a second
    /// process writing to the same directory at this moment keeps its file.
    @discardableResult
    public func removeAbandonedTemporaryFiles() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.split(separator: ".")
            // "", file name parts…, pid, random, "tmp": the pid is third from the end.
            guard parts.count >= 4, let pid = pid_t(parts[parts.count - 3]), pid > 0, !Self.isRunning(pid) else {
                continue
            }
            if unlink(directory.appendingPathComponent(name, isDirectory: false).path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether a process with this pid exists (signal 0 checks without sending anything; EPERM means it
    /// exists but belongs to someone else).
    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
