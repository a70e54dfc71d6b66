/// The process exit statuses of showcasectl(1), the only numbers scripts may rely on.
///
/// The values follow `sysexits.h` so that a wrapper which already knows those meanings (systemd,
/// monitoring checks, shell scripts) reads them correctly without consulting our documentation.
enum ExitCode: Int32, Sendable {
    /// The command did what was asked. An empty roster in state fresh or stale is a success.
    case success = 0
    /// The daemon answered with an upstream diagnostic (HostAppNotFound, MalformedResponse,
    /// MissingEntityParameter, Unavailable, AppNotFound), or a requested refresh failed.
    case failure = 1
    /// The command line itself is wrong: unknown command or flag, missing value, bad platform.
    case usage = 64
    /// The request was well formed but names something that does not exist (UnknownStorefront,
    /// UnknownHost) or carries a parameter the daemon rejects.
    case dataError = 65
    /// No daemon answers on the socket.
    case unavailable = 69
    /// The roster was still warming when the `--wait` time ran out.
    case tempFailure = 75
    /// The daemon (or the socket's file mode) refused this user.
    case noPermission = 77
    /// A configuration is invalid or unreadable (`reload`, `check-config`).
    case config = 78
}
