@preconcurrency import Glibc

/// One command's conversation with the daemon: connect, call, print.
struct Session {
    let options: GlobalOptions
    let environment: [String: String]
    let console: Console

    var socketPath: String { SocketPath.resolve(options, environment: environment) }

    func execute(_ command: Command) throws(CommandFailure) {
        if case .version = command {
            console.line("showcasectl \(CommandRunner.version)")
            console.line("showcased: not reachable at \(socketPath)")
            return
        }
        var status = stat()
        if stat(socketPath, &status) != 0 {
            throw ConnectionFailure.failure(errno: errno, socketPath: socketPath)
        }
        throw ConnectionFailure.failure(errno: ECONNREFUSED, socketPath: socketPath)
    }
}
