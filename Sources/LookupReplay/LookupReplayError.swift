/// Why the replay server could not start or a control request was refused.
public struct LookupReplayError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
