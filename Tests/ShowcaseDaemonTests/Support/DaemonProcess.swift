import BuiltProducts
import Foundation
@preconcurrency import Glibc
import Testing

/// The real `showcased` binary of the build these tests belong to (`.build/debug/showcased` under `make test`,
/// the sanitized one under `make sanitize`; see ``BuiltProducts``) running as a child process with its stderr
/// captured to a file. A sanitizer report in its log fails the test.
final class DaemonProcess: @unchecked Sendable {
    /// The package root, from this file's path (`SHOWCASE_PACKAGE_ROOT` overrides it).
    static let packageRoot = BuiltProducts.packageRoot
    static let binary = BuiltProducts.url("showcased")
    /// `showcasectl` of the same build.
    static let showcasectl = BuiltProducts.url("showcasectl")

    let process = Process()
    let logFile: URL
    let socketPath: String

    /// `JOURNAL_STREAM` set to this is replaced by the log file's `DEVICE:INODE`: the daemon then takes its stderr
    /// for journald's stream, as under systemd (the log only trusts a `JOURNAL_STREAM` that names its stderr).
    static let logIsJournalStream = "<the log file>"

    /// Starts `showcased --config CONFIG --socket SOCKET` (without `--socket` unless `passSocket`) with
    /// `extraEnvironment`, and waits until its socket accepts connections (or it exits).
    init(
        config: URL, socketPath: String, logFile: URL, arguments: [String] = [],
        environment extraEnvironment: [String: String] = [:], waitForSocket: Bool = true,
        launcher: [String] = [], listenPath: String? = nil, passSocket: Bool = true
    ) throws {
        self.logFile = logFile
        self.socketPath = listenPath ?? socketPath
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let daemonArguments = ["--config", config.path] + (passSocket ? ["--socket", socketPath] : []) + arguments
        if let tool = launcher.first {
            // e.g. systemd-socket-activate, which then execs the daemon with LISTEN_FDS set.
            process.executableURL = URL(fileURLWithPath: tool)
            // systemd-socket-activate passes the daemon only the variables named with -E: name this run's
            // sanitizer settings, or a sanitized daemon would run with the sanitizers' defaults (leak checks on).
            let passSanitizers =
                tool.hasSuffix("systemd-socket-activate")
                ? BuiltProducts.sanitizerEnvironment.keys.sorted().flatMap { ["-E", $0] } : []
            process.arguments =
                Array(launcher.dropFirst()) + passSanitizers + [Self.binary.path] + daemonArguments
        } else {
            process.executableURL = Self.binary
            process.arguments = daemonArguments
        }
        var environment = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "WATCHDOG_USEC", "JOURNAL_STREAM"] {
            environment[key] = nil
        }
        environment.merge(extraEnvironment) { $1 }
        checksSanitizerReport = true
        let log = try FileHandle(forWritingTo: logFile)
        if environment["JOURNAL_STREAM"] == Self.logIsJournalStream {
            var status = stat()
            fstat(log.fileDescriptor, &status)
            environment["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)"
        }
        process.environment = environment
        process.standardError = log
        process.standardOutput = log
        try process.run()
        if waitForSocket { try self.waitForSocket() }
    }

    /// Polls until the socket accepts a connection; throws with the daemon's log if it exits first.
    func waitForSocket(timeout: Duration = .seconds(15)) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if Self.canConnect(socketPath) { return }
            if !process.isRunning {
                throw HarnessError("showcased exited with \(process.terminationStatus) before answering: \(log)")
            }
            usleep(10_000)
        }
        throw HarnessError("showcased did not open \(socketPath) in time: \(log)")
    }

    /// Everything the daemon wrote to stderr/stdout so far.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    var pid: Int32 { process.processIdentifier }

    func send(_ signalNumber: Int32) { kill(process.processIdentifier, signalNumber) }

    /// Waits for the process to exit and returns its exit status (128+N for a signal).
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(15)) throws -> Int32 {
        let status = try process.exitStatus(within: timeout) { HarnessError("showcased did not exit in time: \(log)") }
        if let report = takeSanitizerReport() { throw HarnessError("showcased: \(report)") }
        return status
    }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    func stop() throws -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        send(SIGTERM)
        return try waitForExit()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        recordSanitizerReport()
    }

    /// Fails the current test with the sanitizer report in the daemon's log, if there is one not reported yet.
    func recordSanitizerReport() {
        if let report = takeSanitizerReport() { Issue.record("showcased: \(report)") }
    }

    /// Whether a sanitizer report in the log is still to be reported (once: by ``waitForExit(timeout:)`` or
    /// at the end of the test).
    private var checksSanitizerReport = false

    /// The sanitizer report in the daemon's log, the first time it is asked for.
    private func takeSanitizerReport() -> String? {
        guard checksSanitizerReport, let report = BuiltProducts.sanitizerReport(in: log) else { return nil }
        checksSanitizerReport = false
        return report
    }

    static func canConnect(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            path.utf8CString.withUnsafeBytes {
                raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(raw.count)))
            }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
