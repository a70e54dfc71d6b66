@preconcurrency import Glibc
import ShowcaseConfig

/// Where `showcasectl` looks for the daemon's socket.
enum SocketPath {
    /// `--socket` when given; else `socket.path` of the `--config` file when one is named; else the
    /// default of SPEC §2 (`DefaultPaths`, the same rule the daemon binds by). The default
    /// configuration is not read: a plain `showcasectl roster` stays a socket call and nothing more.
    static func resolve(_ options: GlobalOptions, environment: [String: String]) throws(CommandFailure) -> String {
        if let explicit = options.socketPath { return explicit }
        let defaults = DefaultPaths(environment: environment, uid: getuid())
        guard let configPath = options.configPath else { return defaults.socketPath }
        do {
            return try ConfigLoader.load(path: configPath, defaults: defaults).socket.path
        } catch {
            let first = error.errors.first.map { "\($0)" } ?? "\(configPath): invalid configuration"
            let more = error.errors.count > 1 ? " (and \(error.errors.count - 1) more)" : ""
            throw CommandFailure(
                message: "cannot find the socket in --config: \(first)\(more); fix it (showcasectl check-config "
                    + "\(configPath)) or pass --socket PATH",
                exitCode: .config)
        }
    }
}
