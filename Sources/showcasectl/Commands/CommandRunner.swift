import ShowcaseCore

/// Runs one `showcasectl` invocation from arguments to exit status.
///
/// Parsing, the call to the daemon and output are kept apart so that every failure, whatever its
/// source, ends the same way: one stderr line that says what to do, and the exit status showcasectl(1) documents.
enum CommandRunner {
    /// This client's version, printed by `showcasectl version`: the release's one number.
    static let version = ShowcaseVersion.string

    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let console = Console(environment: environment)
        let invocation: Invocation
        do {
            invocation = try CommandLineParser.parse(arguments)
        } catch {
            console.error(error.message)
            if let usage = error.usageLine { console.errorDetail(usage) }
            return error.exitCode.rawValue
        }
        switch invocation.command {
        case .help(let name):
            console.line(name.flatMap(CommandSpec.named).map(HelpText.command) ?? HelpText.overview())
            return ExitCode.success.rawValue
        case .clientVersion:
            console.line("showcasectl \(version)")
            return ExitCode.success.rawValue
        case .checkConfig(let path):
            // ShowcaseConfig's entry point: validates without a daemon, prints file:line:column errors.
            return checkConfigCommand(path: path, environment: environment, json: invocation.options.json)
        case .check(let maxAge):
            // The monitoring-plugin convention: one line on stdout and exit 0-3, whatever goes wrong.
            return checkCommand(
                maxAge: maxAge, options: invocation.options, environment: environment, console: console)
        default:
            break
        }
        let session = Session(options: invocation.options, environment: environment, console: console)
        do {
            try session.execute(invocation.command)
            return ExitCode.success.rawValue
        } catch {
            console.error(error.message)
            return error.exitCode.rawValue
        }
    }
}
