@preconcurrency import Glibc

/// Explains why the daemon could not be reached, from the `errno` of `connect(2)`.
enum ConnectionFailure {
    /// ENOENT/ECONNREFUSED/ENOTSOCK mean no daemon (69); EACCES/EPERM mean the socket's mode or
    /// directory keeps this user out (77); anything else is reported with its system message (69).
    static func failure(errno code: Int32, socketPath path: String) -> CommandFailure {
        switch code {
        case ENOENT, ENOTDIR:
            return CommandFailure(
                message: "showcased is not running (no socket at \(path)); start it with: systemctl start showcased",
                exitCode: .unavailable)
        case ECONNREFUSED:
            return CommandFailure(
                message: "showcased is not running (nothing listens on \(path), a socket left by a stopped daemon); "
                    + "start it with: systemctl start showcased",
                exitCode: .unavailable)
        case EACCES, EPERM:
            return CommandFailure(
                message: "permission denied opening \(path); run as root or as a member of the socket's group "
                    + "(socket.mode in the configuration decides who may connect)",
                exitCode: .noPermission)
        default:
            let reason = String(cString: strerror(code))
            return CommandFailure(
                message: "cannot reach showcased at \(path): \(reason); check --socket and that the daemon runs "
                    + "(systemctl status showcased)",
                exitCode: .unavailable)
        }
    }
}
