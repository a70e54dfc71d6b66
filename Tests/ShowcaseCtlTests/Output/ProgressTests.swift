import Foundation
import Testing

/// SPEC §17: `refresh` and `roster --wait` show what they wait for on a terminal's stderr, in place, and never on
/// a pipe or under `--json`; progress never changes stdout or the exit status.
@Suite(
    "progress on long work", .serialized,
    .enabled(if: Tool.find("script") != nil, "script(1) is not installed (util-linux)"))
struct ProgressTests {
    /// Erase to the end of the line: how ``TerminalProgress`` ends every update, and nothing else writes it.
    static let eraseLine = "\u{1b}[K"

    /// Runs `showcasectl ARGUMENTS` under `script(1)`, so stdout and stderr are a terminal, with `redirect` (like
    /// `2>FILE`) appended to the command line; the terminal's output comes back as stdout.
    static func onTerminal(_ arguments: [String], redirect: String = "") throws -> CtlResult {
        let script = try #require(Tool.find("script"))
        let command = ([Ctl.binary] + arguments).map { "'\($0)'" }.joined(separator: " ") + redirect
        var environment = Ctl.baseEnvironment(runtimeDirectory: "/tmp")
        environment["NO_COLOR"] = "1"
        environment["TERM"] = "xterm"
        return try Tool.capture(script, ["-qec", command, "/dev/null"], environment: environment)
    }

    /// A daemon whose two storefronts are warm and whose every lookup from now on takes 2 s.
    static func slowDaemon() throws -> RealDaemon {
        let daemon = try RealDaemon(timeout: "10s")
        for code in ["us", "de"] {
            #expect(try daemon.run(["roster", "--storefront", code, "--wait", "10"]).status == 0)
        }
        try daemon.injectFault(["delayMs": "2000"], matching: "/lookup")
        return daemon
    }

    @Test("refresh on a terminal shows the storefronts done and the time left on stderr, then clears the line")
    func refreshOnTerminal() throws {
        let daemon = try Self.slowDaemon()
        defer { daemon.stop() }
        let result = try Self.onTerminal(["--socket", daemon.socketPath, "refresh"])
        #expect(result.status == 0, "\(result.stdout.debugDescription)\n\(daemon.log)")
        #expect(result.stdout.contains("\r0/2 storefronts") || result.stdout.contains("\r1/2 storefronts"))
        #expect(result.stdout.contains(Self.eraseLine))
        // Cleared before the answer: the result starts on a clean line.
        #expect(result.stdout.contains("\r\(Self.eraseLine)refreshed: de, us"), "\(result.stdout.debugDescription)")
    }

    @Test("refresh with stderr a file, or with --json, shows no progress and prints the same answer")
    func refreshWithoutTerminal() throws {
        let daemon = try Self.slowDaemon()
        defer { daemon.stop() }
        let errors = daemon.directory.appendingPathComponent("stderr.txt")
        let redirected = try Self.onTerminal(
            ["--socket", daemon.socketPath, "refresh"], redirect: " 2>'\(errors.path)'")
        #expect(redirected.status == 0)
        #expect(redirected.stdout == "refreshed: de, us\r\n", "\(redirected.stdout.debugDescription)")
        #expect(try String(contentsOf: errors, encoding: .utf8) == "")

        let json = try Self.onTerminal(["--socket", daemon.socketPath, "--json", "refresh"])
        #expect(json.status == 0)
        #expect(!json.stdout.contains("storefronts"), "\(json.stdout.debugDescription)")
        #expect(!json.stdout.contains(Self.eraseLine))

        let piped = try daemon.run(["refresh"])
        #expect(piped.status == 0)
        #expect(piped.stdout == "refreshed: de, us\n")
        #expect(piped.stderr.isEmpty, "\(piped.stderr.debugDescription)")
    }

    @Test("roster --wait on a terminal says which storefront it waits for and how long of how long")
    func rosterWaitOnTerminal() throws {
        let daemon = try RealDaemon(storefronts: ["us"], timeout: "10s")
        defer { daemon.stop() }
        try daemon.injectFault(["delayMs": "2000"], matching: "country=jp")
        try daemon.injectFault(["delayMs": "2000"], matching: "country=de")
        let result = try Self.onTerminal([
            "--socket", daemon.socketPath, "roster", "--storefront", "jp", "--wait", "20",
        ])
        #expect(result.status == 0, "\(result.stdout.debugDescription)\n\(daemon.log)")
        #expect(result.stdout.contains("\rwaiting for jp: "), "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains(" of 20 s\(Self.eraseLine)"))
        #expect(result.stdout.contains("\r\(Self.eraseLine)jp · fresh"), "\(result.stdout.debugDescription)")

        let piped = try daemon.run(["roster", "--storefront", "de", "--wait", "20"])
        #expect(piped.status == 0)
        #expect(piped.stderr.isEmpty, "\(piped.stderr.debugDescription)")
        #expect(piped.stdout.hasPrefix("de · fresh"))
    }
}
