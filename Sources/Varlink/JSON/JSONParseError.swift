/// Why bytes were rejected as JSON, with the byte offset where parsing stopped.
///
/// The server never shows this to a peer verbatim; it exists so tests and logs can say
/// exactly what was wrong with a message.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset into the input where the problem was found.
    public let offset: Int
    /// What was expected or found there.
    public let reason: String

    /// An error at byte `offset` explaining `reason`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `invalid JSON at byte N: reason`.
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
