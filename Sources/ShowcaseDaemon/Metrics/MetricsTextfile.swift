import Foundation
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

    /// Replaces the file's content with `text`, or changes nothing and throws.
    public func write(_ text: String) throws(MetricsTextfileError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array("\(directory)/.\(url.lastPathComponent).tmp.XXXXXX".utf8CString)
        // mkstemp, then close-on-exec: mkostemp needs _GNU_SOURCE, which this package does not build with.
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw MetricsTextfileError(path: path, step: "mkstemp", errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            close(descriptor)
            if !renamed { unlink(temporary) }
        }

        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw MetricsTextfileError(path: path, step: "write", errno) }
            offset += n
        }
        guard fchmod(descriptor, 0o644) == 0 else { throw MetricsTextfileError(path: path, step: "fchmod", errno) }
        guard fsync(descriptor) == 0 else { throw MetricsTextfileError(path: path, step: "fsync", errno) }
        guard rename(temporary, path) == 0 else { throw MetricsTextfileError(path: path, step: "rename", errno) }
        renamed = true
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            // The new content is in place either way; a failed directory sync only risks the old file after a crash.
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}
