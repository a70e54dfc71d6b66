#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The process's standard output or standard error, written whole: what `FileHandle.standardError.write(_:)` did,
/// without Foundation (which would link ICU into every binary).
public enum StandardStream: Sendable {
    /// File descriptor 1.
    case output
    /// File descriptor 2.
    case error

    /// Writes all of `bytes`, retrying short writes and interrupted calls; an error (a closed pipe) drops the rest.
    public func write(_ bytes: some Collection<UInt8>) {
        let descriptor = self == .output ? STDOUT_FILENO : STDERR_FILENO
        let buffer = Array(bytes)
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) {
        write(text.utf8)
    }
}
