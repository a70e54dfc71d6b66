/// Everything a command line asked for: the global flags and one command.
struct Invocation: Sendable, Equatable {
    var options: GlobalOptions
    var command: Command
}
