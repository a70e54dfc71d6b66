/// Why the replay server could not start or a control request was refused.
public struct LookupReplayError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a sentence for the test failure.
    public let description: String
    init(_ description: String) { self.description = description }
}
