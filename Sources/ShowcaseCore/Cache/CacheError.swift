/// A cache write that failed. Reads never throw: an unreadable file is a miss.
public struct CacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or directory involved.
    public let path: String
    /// What failed, e.g. "open: Permission denied".
    public let detail: String

    /// Creates the error.
    public init(path: String, detail: String) {
        self.path = path
        self.detail = detail
    }

    /// One sentence saying what happened and what to do.
    public var description: String {
        "could not write the cache file \(path) (\(detail)); check that cache.directory exists and is writable "
            + "by the daemon's user (the previous cached roster is untouched)"
    }
}
