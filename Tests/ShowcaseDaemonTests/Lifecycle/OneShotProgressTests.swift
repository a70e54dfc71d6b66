import Foundation
@preconcurrency import Glibc
import Testing

/// The progress of `showcased --once` (SPEC §17): on stderr in place when it is a terminal, never on a pipe or
/// under `--json`. The terminal is a pseudo-terminal from Python's `pty` module.
@Suite("One-shot progress", .serialized)
struct OneShotProgressTests {
    static let python = "/usr/bin/python3"

    /// Runs `showcased --once --config <bed's> arguments…` with stdout and stderr on a pseudo-terminal and returns
    /// the exit status and every byte the terminal received.
    func runOnTerminal(_ bed: TestBed, _ arguments: [String] = []) throws -> (status: Int32, output: String) {
        let script = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            data = b""
            while True:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                data += chunk
            _, status = os.waitpid(pid, 0)
            sys.stdout.buffer.write(data)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments =
            ["-c", script, DaemonProcess.binary.path, "--once", "--config", bed.configURL.path] + arguments
        let output = bed.directory.appendingPathComponent("terminal.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        let status = try process.exitStatus(within: .seconds(60)) {
            HarnessError("showcased --once on a terminal did not finish in time")
        }
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// A bed whose cold run waits for the rate limit (1 request a second, 3 requests).
    func bed() throws -> TestBed {
        let bed = try TestBed()
        bed.rateLimit = "60/min"
        try bed.writeConfig()
        return bed
    }

    @Test("on a terminal the progress line is shown in place and cleared; on a pipe nothing of it appears")
    func progressOnlyOnTerminal() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.python), "the test needs \(Self.python)")
        let terminal = try runOnTerminal(try bed())
        #expect(terminal.status == 0, "\(terminal.output)")
        #expect(terminal.output.contains("\r0/2 storefronts"), "\(terminal.output.debugDescription)")
        #expect(terminal.output.contains("left\u{1b}[K"), "\(terminal.output.debugDescription)")
        #expect(
            terminal.output.contains("\r\u{1b}[K"), "cleared before the report: \(terminal.output.debugDescription)")
        // A log line never continues the progress text: it clears the line first.
        #expect(
            terminal.output.range(of: "left\u{1b}\\[K[^\r]", options: .regularExpression) == nil,
            "\(terminal.output.debugDescription)")

        let piped = try OneShotRun.run(try bed())
        #expect(piped.status == 0, "\(piped)")
        #expect(!piped.stderr.contains("storefronts,"), "\(piped.stderr)")
        #expect(!piped.stderr.contains("\r") && !piped.stdout.contains("\r"), "\(piped.stderr.debugDescription)")
    }

    @Test("under --json nothing of the progress reaches the terminal")
    func noProgressUnderJSON() throws {
        let terminal = try runOnTerminal(try bed(), ["--json"])
        #expect(terminal.status == 0, "\(terminal.output)")
        #expect(!terminal.output.contains("storefronts,"), "\(terminal.output.debugDescription)")
        #expect(!terminal.output.contains("\u{1b}[K"), "\(terminal.output.debugDescription)")
    }
}
