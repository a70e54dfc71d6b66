import Foundation

// Temporary entry point: only `check-config` exists until the full command-line client lands.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "check-config" where arguments.count <= 2:
    exit(checkConfigCommand(path: arguments.dropFirst().first, environment: ProcessInfo.processInfo.environment))
default:
    FileHandle.standardError.write(Data("usage: showcasectl check-config [PATH]\n".utf8))
    exit(64)
}
