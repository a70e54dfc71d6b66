import DirectorySafety
import FoundationEssentials
@preconcurrency import Glibc

/// The file node_exporter's textfile collector reads (`metrics.textfile`, e.g.
/// `/var/lib/prometheus/node-exporter/showcase.prom`), replaced atomically on each write.
///
/// The collector may read the file at any moment, so it must never see half a file: the text goes to a
/// temporary file in the same directory (named without the `.prom` suffix, which the collector would pick up),
/// is flushed with `fsync`, then renamed over the target, and the directory is synced so the rename survives
/// a crash. The file is made readable by everyone (0644) whatever the daemon's umask (the unit's `UMask=0077`):
/// node_exporter runs as another user.
public struct MetricsTextfile: Sendable, Equatable {
    /// The target file's path.
    public let path: String

    /// The textfile at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Replaces the file's content with `text`, or changes nothing and throws. The directory is the operator's
    /// (`metrics.textfile`'s folder); inside it everything goes through ``TrustedDirectory``: the temporary file is
    /// created exclusively under a fresh name, never through a link another user planted.
    public func write(_ text: String) throws(MetricsTextfileError) {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let directory: TrustedDirectory
        do {
            directory = try TrustedDirectory.open(url.deletingLastPathComponent().path)
        } catch {
            throw MetricsTextfileError(path: path, step: "mkstemp", error.errno)
        }
        let temporary = ".\(name).tmp.\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        if let failure = directory.create(temporary, bytes: Data(text.utf8), mode: 0o644) {
            let writing = [ENOSPC, EDQUOT, EIO, EFBIG].contains(failure.errno)
            throw MetricsTextfileError(path: path, step: writing ? "write" : "mkstemp", failure.errno)
        }
        if let failure = directory.syncFile(temporary) {
            _ = directory.removeFile(temporary)
            throw MetricsTextfileError(path: path, step: "fsync", failure.errno)
        }
        if let failure = directory.rename(temporary, to: name) {
            _ = directory.removeFile(temporary)
            throw MetricsTextfileError(path: path, step: "rename", failure.errno)
        }
        // The new content is in place either way; a failed directory sync only risks the old file after a crash.
        directory.sync()
    }
}
