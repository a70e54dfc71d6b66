@preconcurrency import Glibc
import Varlink

/// The connection to showcased, with every transport and error reply already translated into a
/// `CommandFailure` that says what to do.
///
/// Uses `VarlinkClient`'s synchronous calls: a CLI makes one call and exits, and blocking on one
/// socket is the cheapest way to do that (no threads, no tasks, nothing to start at launch).
struct DaemonConnection {
    let socketPath: String
    private let client: VarlinkClient

    /// Connects to `location.path`, or fails with "not running" (69) or "permission denied" (77).
    init(_ location: SocketLocation) throws(CommandFailure) {
        self.socketPath = location.path
        do {
            client = try VarlinkClient(path: location.path, timeout: .seconds(30))
        } catch {
            throw Self.connectFailure(location, error: error)
        }
    }

    /// Calls `method` and returns its reply parameters. `timeout` nil means the default 30 s.
    func call(_ method: String, _ parameters: JSONValue = .emptyObject, timeout: Duration? = nil)
        throws(CommandFailure) -> JSONValue
    {
        do {
            return try client.callSync(method, parameters, timeout: timeout)
        } catch {
            throw failure(error, method: method)
        }
    }

    /// Calls `method` with `more` and hands each reply to `body` until the daemon sends the last
    /// one; never times out, as a watch waits for changes that may take a day.
    func stream(_ method: String, _ parameters: JSONValue = .emptyObject, _ body: (JSONValue) -> Void)
        throws(CommandFailure)
    {
        do {
            try client.callMoreSync(method, parameters, timeout: nil) { reply, _ in
                body(reply)
                return true
            }
        } catch {
            throw failure(error, method: method)
        }
    }

    private func failure(_ error: VarlinkError, method: String) -> CommandFailure {
        switch error.code {
        case .reply:
            return DaemonErrorMapping.failure(error)
        case .timeout:
            return CommandFailure(
                message: "showcased did not answer \(method) in time at \(socketPath); it may be overloaded or "
                    + "stuck (check: systemctl status showcased)",
                exitCode: .unavailable)
        case .connectionClosed:
            return CommandFailure(
                message: "showcased closed the connection at \(socketPath) (it stopped or restarted); "
                    + "check: systemctl status showcased",
                exitCode: .unavailable)
        default:
            return CommandFailure(
                message: "the service at \(socketPath) did not answer as showcased does (\(error.description)); "
                    + "check --socket",
                exitCode: .unavailable)
        }
    }

    /// How to start the daemon, for whoever runs this: root starts the system service; any other user cannot,
    /// but can run their own daemon (a plain process or a user unit), or ask for the system one.
    private static var startHint: String {
        geteuid() == 0
            ? "start it with: systemctl start showcased"
            : "start your own with: showcased (or systemctl --user start showcased), or ask an administrator to "
                + "run: systemctl start showcased"
    }

    /// Finds out why connecting failed by looking at the path itself: the client reports the
    /// failure as text, and the exit status depends on whether it was absence or permissions.
    private static func connectFailure(_ location: SocketLocation, error: VarlinkError) -> CommandFailure {
        let path = location.path
        if let tooLong = VarlinkServer.socketPathTooLong(path) {
            return CommandFailure(
                message: "\(tooLong) (\(path)); use a shorter --socket or socket.path", exitCode: .unavailable)
        }
        let notRunning = CommandFailure(
            message: "showcased is not running (no socket at \(location.triedDescription)); " + startHint,
            exitCode: .unavailable)
        let denied = CommandFailure(
            message: "permission denied opening \(path); run as root or as a member of the socket's group "
                + "(socket.mode in the daemon's configuration decides who may connect)",
            exitCode: .noPermission)
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == EACCES ? denied : notRunning
        }
        guard (status.st_mode & S_IFMT) == S_IFSOCK else {
            return CommandFailure(
                message: "\(path) is not a socket; point --socket at showcased's socket (socket.path)",
                exitCode: .unavailable)
        }
        if access(path, R_OK | W_OK) != 0, errno == EACCES {
            return denied
        }
        return CommandFailure(
            message: "showcased is not running (no daemon listens on \(path), a socket left by a stopped daemon); "
                + startHint,
            exitCode: .unavailable)
    }
}
