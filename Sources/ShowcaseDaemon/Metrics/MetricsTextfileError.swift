import FoundationEssentials
@preconcurrency import Glibc

/// Writing `metrics.textfile` failed; the previous file, if any, is left as it was.
public struct MetricsTextfileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The textfile's path.
    public let path: String
    /// The system call that failed: `mkstemp` (the temporary file beside it), `write`, `fchmod`, `fsync` or `rename`.
    public let step: String
    /// The `errno` of the failure.
    public let code: Int32

    /// The failure of `step` on `path` with `code`.
    public init(path: String, step: String, _ code: Int32) {
        self.path = path
        self.step = step
        self.code = code
    }

    /// A sentence naming the file, the failure and what to check.
    public var description: String {
        "could not write the metrics textfile \(path): \(step): \(String(cString: strerror(code))); "
            + "check that metrics.textfile names a file in an existing directory the daemon may write "
            + "(under systemd, a path the unit makes writable)"
    }
}
