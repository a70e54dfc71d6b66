/// A command-line mistake: printed with the usage, exit status 64.
public struct DaemonUsageError: Error, Sendable, CustomStringConvertible {
    /// What was wrong with the command line, as one sentence.
    public let description: String
    init(_ description: String) { self.description = description }
}
