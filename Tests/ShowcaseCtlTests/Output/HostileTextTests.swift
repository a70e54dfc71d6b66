import Foundation
import Testing
import Varlink

/// Upstream text with control characters in it, as human output shows it: escaped (`\x1b`, `\u2028`), so an app
/// name cannot clear the terminal, set its title or split a table row; `--json` still carries it as sent (SPEC §17).
@Suite("showcasectl shows control characters from data escaped")
struct HostileTextTests {
    /// Names an invented developer could give its apps: a screen clear, a window title, a line break, a carriage
    /// return, a line separator, a NUL and DEL.
    static let names = [
        "Clear\u{1B}[2J", "\u{1B}]0;pwned\u{07}Title", "Line\nBreak", "Carriage\rReturn", "Sep\u{2028}arator",
        "Nul\u{0}Del\u{7F}",
    ]

    static let hostileRoster = Canned.roster(
        apps: names.enumerated().map { index, name in
            Canned.app(Int64(1_000_000_001 + index), name, price: "Gratis", genre: "Utilities", tagline: name)
        })

    /// A character human output must never contain raw (the fake's output goes to a pipe, so no colour either).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
            || scalar == "\u{2029}"
    }

    @Test("a roster's hostile app names render escaped and the table keeps one row per app")
    func rosterTable() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .reply(Self.hostileRoster)])
        defer { daemon.stop() }
        let result = try daemon.run(["roster", "--storefront", "de"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stdout.unicodeScalars.contains(where: Self.isControl), "raw: \(result.stdout.debugDescription)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 2 + Self.names.count, "header, titles, one row per app:\n\(result.stdout)")
        guard lines.count == 2 + Self.names.count else { return }
        #expect(lines[2].hasPrefix("Clear\\x1b[2J "))
        #expect(lines[3].hasPrefix("\\x1b]0;pwned\\x07Title "))
        #expect(lines[4].hasPrefix("Line\\x0aBreak "))
        #expect(lines[5].hasPrefix("Carriage\\x0dReturn "))
        #expect(lines[6].hasPrefix("Sep\\u2028arator "))
        #expect(lines[7].hasPrefix("Nul\\x00Del\\x7f "))
        #expect(lines[4].contains("1000000003"), "the row goes on to its id: nothing split it")
        #expect(Set(lines.dropFirst().map(Width.of)).count == 1, "columns measured on the escaped text")
    }

    @Test("--json still carries the hostile names exactly as the daemon sent them")
    func jsonRaw() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .reply(Self.hostileRoster)])
        defer { daemon.stop() }
        let result = try daemon.run(["--json", "roster", "--storefront", "de"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1)
        let reply = try JSONValue(parsing: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(reply == Self.hostileRoster)
        #expect(reply["apps"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == Self.names)
    }

    @Test(
        "app, storefronts and status show hostile daemon text escaped, one line per item",
        arguments: [
            (["app", "1000000001", "--storefront", "de"], 13),
            (["storefronts"], 3),
            (["status"], 9),
        ])
    func otherViews(arguments: [String], expectedLines: Int) throws {
        let hostile = "Evil\u{1B}[2J\n\u{1B}]0;pwned\u{07}\r\u{2028}"
        var status = Canned.status(lastReloadError: hostile)
        if case .object(var members) = status {
            members["hosts"] = [
                ["bundleId": .string("com.example.\u{1B}[31m"), "artistId": 1, "warning": .string(hostile)]
            ]
            status = .object(members)
        }
        let daemon = try FakeDaemon([
            "io.showcase.Roster.GetApp": .reply([
                "app": Canned.app(1_000_000_001, hostile, price: hostile, genre: hostile, tagline: hostile)
            ]),
            "io.showcase.Roster.Storefronts": .reply([
                "storefronts": [["code": "de", "alpha3": "DEU", "name": .string("Germany\(hostile)"), "warm": true]]
            ]),
            "io.showcase.Admin.Status": .reply(status),
        ])
        defer { daemon.stop() }
        let result = try daemon.run(arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stdout.unicodeScalars.contains(where: Self.isControl), "raw: \(result.stdout.debugDescription)")
        #expect(result.stdout.contains("Evil\\x1b[2J\\x0a\\x1b]0;pwned\\x07\\x0d\\u2028"))
        #expect(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == expectedLines + 1)
    }

    @Test("watch prints each revision's hostile app names escaped, one row per app")
    func watch() throws {
        let reply: JSONValue = [
            "storefront": "de", "revision": 1, "state": "fresh", "apps": Self.hostileRoster["apps"] ?? [],
        ]
        let daemon = try FakeDaemon(["io.showcase.Roster.Watch": .stream([reply])])
        defer { daemon.stop() }
        let (result, _) = try WatchAndTerminalTests.runUntilLines(
            ["--socket", daemon.socketPath, "watch", "--storefront", "de"], lines: 2 + Self.names.count)
        #expect(!result.stdout.unicodeScalars.contains(where: Self.isControl), "raw: \(result.stdout.debugDescription)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 + Self.names.count, "stdout:\n\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("Line\\x0aBreak ") })
    }

    @Test("refresh, export and metrics escape what they quote; metrics keeps its own line breaks")
    func adminLines() throws {
        let hostile = "de\u{1B}[2J\n\u{0}"
        let daemon = try FakeDaemon([
            "io.showcase.Admin.Refresh": .reply([
                "refreshed": [.string(hostile)], "failed": [["storefront": "jp", "error": .string(hostile)]],
            ]),
            "io.showcase.Admin.Export": .reply([
                "directory": .string("/srv/\u{1B}]0;x\u{7}"), "written": 1, "unchanged": 0, "removed": 0,
                "errors": [.string(hostile)],
            ]),
            "io.showcase.Admin.Metrics": .reply([
                "text": .string("# HELP a b\nshowcase_x{host=\"\u{1B}[2J\u{2028}\"} 1\n")
            ]),
        ])
        defer { daemon.stop() }
        let refresh = try daemon.run(["refresh"])
        #expect(refresh.status == 1)
        #expect(refresh.stdout == "refreshed: de\\x1b[2J\\x0a\\x00\nfailed: jp: de\\x1b[2J\\x0a\\x00\n")
        #expect(refresh.stderr.split(separator: "\n").count == 1, "stderr: \(refresh.stderr)")
        #expect(!refresh.stderr.unicodeScalars.contains(where: Self.isControl))
        let export = try daemon.run(["export"])
        #expect(export.status == 1)
        #expect(export.stdout.hasPrefix("exported to /srv/\\x1b]0;x\\x07: 1 written"))
        #expect(export.stdout.hasSuffix("failed: de\\x1b[2J\\x0a\\x00\n"))
        #expect(!export.stderr.unicodeScalars.contains(where: Self.isControl))
        let metrics = try daemon.run(["metrics"])
        #expect(metrics.status == 0)
        #expect(metrics.stdout == "# HELP a b\nshowcase_x{host=\"\\x1b[2J\\u2028\"} 1\n")
    }

    @Test("end to end: an upstream app name with ESC, OSC, NUL and line breaks reaches the table escaped")
    func realDaemon() throws {
        let daemon = try RealDaemon(storefronts: ["us"])
        defer { daemon.stop() }
        // The us roster as captured, one name rewritten, JSON-escaped as Apple would send it.
        let fixture = try String(
            contentsOf: RealDaemon.fixtures.appendingPathComponent("roster-1641000001-us.json"), encoding: .utf8)
        let hostile = #""trackName":"Lantern\u001b[2J\u001b]0;pwned\u0007\u0000\nlight\r\u2028""#
        #expect(fixture.contains(#""trackName":"Lanternlight""#))
        let rewritten = daemon.directory.appendingPathComponent("hostile-roster.json")
        try fixture.replacingOccurrences(of: #""trackName":"Lanternlight""#, with: hostile)
            .write(to: rewritten, atomically: true, encoding: .utf8)
        try daemon.override("roster-1641000001-us.json", withFile: rewritten.path)
        let refresh = try daemon.run(["refresh", "--storefront", "us"])
        #expect(refresh.status == 0, "stderr: \(refresh.stderr)\n\(daemon.log)")

        let human = try daemon.run(["roster", "--storefront", "us"])
        #expect(human.status == 0, "stderr: \(human.stderr)")
        #expect(!human.stdout.unicodeScalars.contains(where: Self.isControl), "raw: \(human.stdout.debugDescription)")
        #expect(human.stdout.contains("Lantern\\x1b[2J\\x1b]0;pwned\\x07\\x00\\x0alight\\x0d\\u2028 "))
        let json = try daemon.run(["--json", "roster", "--storefront", "us"])
        let reply = try JSONValue(parsing: json.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let names = reply["apps"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names.contains("Lantern\u{1B}[2J\u{1B}]0;pwned\u{7}\u{0}\nlight\r\u{2028}"), "names: \(names)")
        // One row per app: the table has the JSON reply's app count plus the header and the titles.
        #expect(human.stdout.split(separator: "\n").count == 2 + names.count)
    }

    @Test("a daemon error quoting upstream text is one escaped line on stderr")
    func errorLine() throws {
        let daemon = try FakeDaemon([
            "io.showcase.Roster.Get": .error(
                "io.showcase.Roster.MalformedResponse",
                ["storefront": "de", "detail": "name '\u{1B}[2J\u{0}\n<0>forged'"])
        ])
        defer { daemon.stop() }
        let result = try daemon.run(["roster", "--storefront", "de"])
        #expect(result.status == 1)
        #expect(!result.stderr.unicodeScalars.contains(where: Self.isControl))
        #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("name '\\x1b[2J\\x00\\x0a<0>forged'"))
    }
}
