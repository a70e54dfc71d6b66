/// The flags every command accepts (showcasectl(1)).
struct GlobalOptions: Sendable, Equatable {
    /// `--socket PATH`: where to reach the daemon; nil means the default path (`DefaultPaths`).
    var socketPath: String?
    /// `--config PATH`: the configuration file for `check-config`, and where to read `socket.path`.
    var configPath: String?
    /// `--json`: print the reply parameters as JSON instead of the human table.
    var json = false
}
