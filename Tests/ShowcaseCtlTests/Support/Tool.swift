import BuiltProducts
import Foundation
import Testing

/// Runs a helper program (bash, zsh, man) and captures its output, for the completion and
/// man page tests.
enum Tool {
    /// The absolute path of `name` on PATH, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable ARGUMENTS` with `environment` added to the current one.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> CtlResult
    {
        try capture(
            executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// Runs a program to completion with exactly `environment` (plus this run's sanitizer settings), output
    /// captured through files (pipes could fill and block the child while the parent waits). A sanitizer report
    /// on its stderr fails the test.
    static func capture(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> CtlResult
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = BuiltProducts.withSanitizerSettings(environment)
        process.currentDirectoryURL = Ctl.packageRoot
        let scratch = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let result = CtlResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
        if let report = BuiltProducts.sanitizerReport(in: result.stderr) { Issue.record("\(executable): \(report)") }
        return result
    }
}
