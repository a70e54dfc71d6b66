@preconcurrency import Glibc
import ShowcaseConfig

/// Where `showcasectl` looks for the daemon's socket.
enum SocketPath {
    /// `--socket` when given; else `socket.path` of the `--config` file when one is named; else the
    /// default of `DefaultPaths` (`$SHOWCASE_SOCKET` first; README "Configuration", the same rule the daemon binds
    /// by; a relative `$SHOWCASE_SOCKET` is a usage error naming it). The default
    /// configuration is not read: a plain `showcasectl roster` stays a socket call and nothing more.
    ///
    /// One addition to the default paths for ordinary users: when the per-user socket does not exist but the
    /// system service's (root's default, `/run/showcase/showcased.sock`) does, that one is used, so a
    /// member of group `showcase` reaches the system daemon without `--socket`. A per-user daemon, when
    /// running, always wins; `$SHOWCASE_SOCKET` and `$RUNTIME_DIRECTORY` (systemd) disable the fallback.
    static func resolve(_ options: GlobalOptions, environment: [String: String]) throws(CommandFailure)
        -> SocketLocation
    {
        if let explicit = options.socketPath { return SocketLocation(explicit) }
        let defaults = DefaultPaths(environment: environment, uid: getuid())
        guard let configPath = options.configPath else {
            if let problem = defaults.socketVariableProblem { throw CommandFailure(message: problem, exitCode: .usage) }
            return fallback(own: defaults.socketPath, system: DefaultPaths(environment: environment, uid: 0).socketPath)
        }
        do {
            return SocketLocation(try ConfigLoader.load(path: configPath, defaults: defaults).socket.path)
        } catch {
            let first = error.errors.first.map { "\($0)" } ?? "\(configPath): invalid configuration"
            let more = error.errors.count > 1 ? " (and \(error.errors.count - 1) more)" : ""
            throw CommandFailure(
                message: "cannot find the socket in --config: \(first)\(more); fix it (showcasectl check-config "
                    + "\(configPath)) or pass --socket PATH",
                exitCode: .config)
        }
    }

    /// The user's own default socket when something is there, else the system one when that exists.
    private static func fallback(own: String, system: String) -> SocketLocation {
        guard own != system else { return SocketLocation(own) }
        if exists(own) { return SocketLocation(own) }
        if exists(system) { return SocketLocation(system, alsoTried: [own]) }
        return SocketLocation(own, alsoTried: [system])
    }

    /// Whether anything is at `path` (a socket, or something in the way that deserves its own message).
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
