import Foundation
import Testing
import Varlink

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Streaming until Ctrl-C, colour only on a terminal, and the socket's own permissions.
@Suite("showcasectl watch, terminals and socket permissions")
struct WatchAndTerminalTests {
    /// Starts showcasectl, waits until its stdout holds `lines` lines, interrupts it like Ctrl-C.
    static func runUntilLines(_ arguments: [String], lines: Int) throws -> (CtlResult, Process.TerminationReason) {
        let scratch = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Ctl.binary)
        process.arguments = arguments
        process.environment = Ctl.baseEnvironment(runtimeDirectory: scratch.path)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        // A bound on waiting, not a timing assertion: the revisions are sent at once.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").count >= lines { break }
            usleep(20_000)
        }
        process.interrupt()
        let stopBy = Date().addingTimeInterval(10)
        while process.isRunning, Date() < stopBy { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("showcasectl ignored SIGINT and had to be killed")
        }
        process.waitUntilExit()
        return (
            CtlResult(
                status: process.terminationStatus,
                stdout: try String(contentsOf: outURL, encoding: .utf8),
                stderr: try String(contentsOf: errURL, encoding: .utf8)),
            process.terminationReason
        )
    }

    @Test("watch --json prints one document per revision, line by line, and exits 0 on Ctrl-C")
    func watchJSON() throws {
        let replies = [Canned.watchReply(revision: 1), Canned.watchReply(revision: 2)]
        let daemon = try FakeDaemon(["io.showcase.Roster.Watch": .stream(replies)])
        defer { daemon.stop() }
        let (result, reason) = try Self.runUntilLines(
            ["--socket", daemon.socketPath, "--json", "watch", "--storefront", "DEU"], lines: 2)
        #expect(reason == .exit)
        #expect(result.status == 0)
        let documents = try result.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        #expect(documents == replies)
        #expect(result.stderr.isEmpty)
        let call = try #require(daemon.calls.first)
        #expect(call.more)
        #expect(call.parameters == ["storefront": "de"])
    }

    @Test("watch prints a header and table per revision for people")
    func watchHuman() throws {
        let daemon = try FakeDaemon([
            "io.showcase.Roster.Watch": .stream([Canned.watchReply(revision: 1), Canned.watchReply(revision: 2)])
        ])
        defer { daemon.stop() }
        let (result, _) = try Self.runUntilLines(["--socket", daemon.socketPath, "watch"], lines: 8)
        #expect(result.status == 0)
        #expect(result.stdout.contains("de · revision 1 · fresh"))
        #expect(result.stdout.contains("de · revision 2 · fresh"))
        #expect(result.stdout.components(separatedBy: "Brew Ratio").count == 3)
    }

    /// Runs showcasectl under `script(1)`, so its stdout is a terminal (`columns` wide when given).
    static func onTerminal(_ arguments: [String], noColor: String?, columns: Int? = nil) throws -> CtlResult {
        let script = try #require(Tool.find("script"))
        let command =
            (columns.map { "stty cols \($0); " } ?? "")
            + ([Ctl.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        var environment = Ctl.baseEnvironment(runtimeDirectory: "/tmp")
        environment["NO_COLOR"] = noColor
        environment["TERM"] = "xterm"
        return try Tool.capture(script, ["-qec", command, "/dev/null"], environment: environment)
    }

    @Test(
        "colour only on a terminal, and never when NO_COLOR is set",
        .enabled(if: Tool.find("script") != nil, "script(1) is not installed (util-linux)"))
    func colourOnlyOnTerminal() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .reply(Canned.roster())])
        defer { daemon.stop() }
        let arguments = ["--socket", daemon.socketPath, "roster", "--storefront", "de"]
        let coloured = try Self.onTerminal(arguments, noColor: nil)
        #expect(coloured.status == 0)
        #expect(coloured.stdout.contains("\u{1B}["))
        #expect(coloured.stdout.contains("NoteJar"))
        let plain = try Self.onTerminal(arguments, noColor: "1")
        #expect(plain.stdout.contains("NoteJar"))
        #expect(!plain.stdout.contains("\u{1B}["))
        #expect(!(try daemon.run(Array(arguments.dropFirst(2)))).stdout.contains("\u{1B}["))
    }

    @Test(
        "on a narrow terminal the tagline column is cut to fit; a pipe gets every character",
        .enabled(if: Tool.find("script") != nil, "script(1) is not installed (util-linux)"))
    func narrowTerminal() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .reply(Canned.roster())])
        defer { daemon.stop() }
        let arguments = ["--socket", daemon.socketPath, "roster", "--storefront", "de"]
        let narrow = try Self.onTerminal(arguments, noColor: "1", columns: 72)
        #expect(narrow.status == 0)
        let rows = narrow.stdout.split(separator: "\r\n").dropFirst()
        #expect(rows.count == 4)
        #expect(rows.allSatisfy { Width.of($0) <= 72 }, "rows wider than 72:\n\(rows.joined(separator: "\n"))")
        #expect(narrow.stdout.contains("Notizen…"))
        #expect(try daemon.run(Array(arguments.dropFirst(2))).stdout.contains("Notizen im Glas"))
    }

    @Test(
        "a socket this user may not open exits 77, not 69",
        .enabled(if: getuid() == 0 && Tool.find("setpriv") != nil, "needs root and setpriv to act as another user"))
    func socketPermission() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .reply(Canned.roster())])
        defer { daemon.stop() }
        let setpriv = try #require(Tool.find("setpriv"))
        let asNobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        #expect(chmod(daemon.socketPath, 0o600) == 0)
        let denied = try Ctl.run(
            ["--socket", daemon.socketPath, "roster", "--storefront", "de"],
            environment: Ctl.baseEnvironment(runtimeDirectory: "/tmp"), prefix: asNobody)
        #expect(denied.status == 77, "stderr: \(denied.stderr)")
        #expect(denied.stderr.contains("permission denied opening \(daemon.socketPath)"))
        #expect(chmod(daemon.socketPath, 0o666) == 0)
        let allowed = try Ctl.run(
            ["--socket", daemon.socketPath, "roster", "--storefront", "de"],
            environment: Ctl.baseEnvironment(runtimeDirectory: "/tmp"), prefix: asNobody)
        #expect(allowed.status == 0, "stderr: \(allowed.stderr)")
    }
}
