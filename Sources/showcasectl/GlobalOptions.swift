/// The flags every command accepts (SPEC §2 and §9).
struct GlobalOptions: Sendable, Equatable {
    /// `--socket PATH`: where to reach the daemon; nil means the default of SPEC §2.
    var socketPath: String?
    /// `--config PATH`: the configuration file for `check-config`, and where to read `socket.path`.
    var configPath: String?
    /// `--json`: print the reply parameters as JSON instead of the human table.
    var json = false
}
