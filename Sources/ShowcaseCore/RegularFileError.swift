import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Why ``RegularFile`` refused or failed to read a file; its description names the path and what to do.
public struct RegularFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// Nothing exists at the path (or a parent is not a directory).
        case missing
        /// `open(2)` failed with this errno (most often EACCES).
        case openFailed(errno: Int32)
        /// The path names a FIFO, device, socket or directory; `kind` says which, as a phrase ("a FIFO (named pipe)").
        case notRegular(kind: String)
        /// The file holds more than `limit` bytes.
        case tooLarge(limit: Int)
        /// `read(2)` failed with this errno.
        case readFailed(errno: Int32)
    }

    /// The file involved, as given.
    public let path: String
    /// What went wrong.
    public let reason: Reason

    /// Creates the error.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// One sentence saying what happened and what to do.
    public var description: String {
        switch reason {
        case .missing: "cannot read '\(path)': no such file; check the path"
        case .openFailed(let code) where code == EACCES:
            "cannot read '\(path)': permission denied; make it readable by the user running showcased"
        case .openFailed(let code): "cannot open '\(path)': \(String(cString: strerror(code)))"
        case .notRegular(let kind):
            "cannot read '\(path)': it is \(kind), not a regular file; point the setting at a regular file"
        case .tooLarge(let limit): "cannot read '\(path)': it is larger than the \(limit)-byte limit"
        case .readFailed(let code): "cannot read '\(path)': \(String(cString: strerror(code)))"
        }
    }
}
