/// What the shell completions offer: the command line of showcasectl(1), including what showcasectl does not accept
/// yet.
extension Ctl {
    /// Commands and flags the contract adds that showcasectl does not parse yet (none today); the completions
    /// already offer them. Once the parser accepts one, it moves into
    /// ``specCommands``/``specFlags`` (``CompletionTests`` notices a command the binary lists that this
    /// table lacks).
    static let upcomingFlags: [String: [String]] = [:]

    /// Every command a completion offers (besides `help`).
    static let completionCommands = specCommands + upcomingFlags.keys.filter { specFlags[$0] == nil }.sorted()

    /// Every command's own flags a completion offers (the global ones aside).
    static let completionFlags: [String: [String]] = specFlags.merging(upcomingFlags) { current, upcoming in
        current + upcoming.filter { !current.contains($0) }
    }

    /// The global flags every command accepts.
    static let globalFlags = ["--socket", "--config", "--json", "--help", "--version"]
}
