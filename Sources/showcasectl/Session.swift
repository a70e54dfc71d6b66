/// One command's conversation with the daemon: connect, call, print.
struct Session {
    let options: GlobalOptions
    let environment: [String: String]
    let console: Console

    func execute(_ command: Command) throws(CommandFailure) {
        throw CommandFailure(message: "not connected yet", exitCode: .unavailable)
    }
}
