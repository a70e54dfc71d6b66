import BuiltProducts
import Foundation
@preconcurrency import Glibc

/// `showcased --once` of this build run to its end against a ``TestBed``'s configuration: its exit status, and
/// its stdout and stderr apart (the report goes to one, progress and log lines to the other).
struct OneShotRun {
    /// The exit status (128+N for a signal).
    var status: Int32
    /// What it printed on stdout: the report.
    var stdout: String
    /// What it printed on stderr: log lines (and never progress, which needs a terminal).
    var stderr: String

    /// The stdout lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Runs `showcased --once --config <bed's> arguments…` to its end; a run still going after `timeout` is killed
    /// and thrown about (a bound against hangs, not a timing assertion).
    static func run(_ bed: TestBed, _ arguments: [String] = [], timeout: Duration = .seconds(60)) throws -> OneShotRun {
        let started = try start(bed, arguments)
        return try started.wait(timeout: timeout)
    }

    /// Starts the run and returns without waiting for it.
    static func start(_ bed: TestBed, _ arguments: [String] = []) throws -> Started {
        let process = Process()
        process.executableURL = DaemonProcess.binary
        process.arguments = ["--once", "--config", bed.configURL.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "WATCHDOG_USEC", "JOURNAL_STREAM"] {
            environment[key] = nil
        }
        process.environment = environment
        // Files, not pipes: a chatty run can never block on a full pipe nobody reads yet.
        let name = UUID().uuidString
        let out = bed.directory.appendingPathComponent("once-\(name).out")
        let err = bed.directory.appendingPathComponent("once-\(name).err")
        for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        return Started(process: process, out: out, err: err)
    }

    /// A run started by ``start(_:_:)``.
    struct Started {
        let process: Process
        let out: URL
        let err: URL

        var pid: Int32 { process.processIdentifier }

        /// Waits for the end of the run.
        func wait(timeout: Duration = .seconds(60)) throws -> OneShotRun {
            let status = try process.exitStatus(within: timeout) {
                HarnessError("showcased --once did not finish in time: \(read(err))")
            }
            let stderr = read(err)
            if let report = BuiltProducts.sanitizerReport(in: stderr) { throw HarnessError("showcased: \(report)") }
            return OneShotRun(status: status, stdout: read(out), stderr: stderr)
        }

        private func read(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
    }
}
