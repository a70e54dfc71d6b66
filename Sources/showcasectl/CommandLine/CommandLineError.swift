/// A command line that cannot run, with the sentence that says why and the exit status to use.
///
/// Usage errors (64) carry the usage line of the command they concern, so the user sees right
/// away what the command accepts; a storefront code that does not exist is bad input (65), the
/// same status the daemon's `UnknownStorefront` maps to, so scripts see one answer either way.
struct CommandLineError: Error, Sendable, Equatable {
    let message: String
    let exitCode: ExitCode
    /// Printed on the line after the message; nil for errors that are not about the syntax.
    let usageLine: String?

    static func usage(_ message: String, command: CommandSpec?) -> CommandLineError {
        CommandLineError(
            message: message, exitCode: .usage, usageLine: command?.usageLine ?? CommandLineParser.overviewUsageLine)
    }

    static func badInput(_ message: String) -> CommandLineError {
        CommandLineError(message: message, exitCode: .dataError, usageLine: nil)
    }
}
