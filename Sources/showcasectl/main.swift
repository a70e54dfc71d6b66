// showcasectl: the command-line client of showcased. Everything lives in CommandRunner; this file
// only hands it the process's arguments and environment and exits with its status.
@preconcurrency import Glibc

let status = CommandRunner.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessEnvironment.current())
exit(status)
