#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Why a ``TrustedDirectory`` operation did not happen, as a value: the caller reports it and goes on.
///
/// Compared by ``code`` and ``path``; ``message`` is the sentence an operator reads.
public struct DirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Code: Sendable, Equatable {
        /// Nothing is at the name.
        case missing
        /// Something is already at a name that was to be created; it was not touched.
        case exists
        /// Something other than what was expected is there (a link, a FIFO, a device, a directory where a file
        /// belongs, a file where a directory belongs); it was left alone.
        case unexpected(EntryKind)
        /// A file is larger than the caller would read.
        case tooLarge
        /// The system refused (the `errno`): a full disk, permissions, a read-only file system.
        case system(Int32)
    }

    /// What kind of failure it is.
    public var code: Code
    /// The entry concerned, as the directory's path and the name (for messages; never opened by it).
    public var path: String
    /// What happened, as one sentence.
    public var message: String

    /// A failure about `path`.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The sentence an operator reads.
    public var description: String { message }

    /// The failure as an `errno` value, for callers that report one.
    public var errno: Int32 {
        switch code {
        case .missing: ENOENT
        case .exists: EEXIST
        case .unexpected(let kind): kind == .directory ? EISDIR : ELOOP
        case .tooLarge: EFBIG
        case .system(let code): code
        }
    }

    /// Whether the failure is something planted where the caller's own file or directory belongs.
    public var isUnexpectedEntry: Bool {
        if case .unexpected = code { return true }
        return false
    }

    /// Failures are equal when they are the same failure of the same entry, whatever the wording.
    public static func == (lhs: DirectoryError, rhs: DirectoryError) -> Bool {
        lhs.code == rhs.code && lhs.path == rhs.path
    }
}
