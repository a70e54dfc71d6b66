import Foundation
import Testing
import Varlink

/// `showcasectl changes` against a fake daemon: what it sends, its table, its JSON and its exit statuses.
@Suite("showcasectl changes")
struct ChangesCommandTests {
    static let reply: JSONValue = [
        "storefront": "us", "host": "com.example.NoteJar", "latest": 12,
        "changes": [
            [
                "serial": 12, "at": "2026-12-01T08:00:00Z", "kind": "updated", "id": 1_234_567_890,
                "name": "Note Jar\u{1B}]0;owned\u{07}", "platform": "ios",
                "storeUrl": "https://apps.apple.com/us/app/id1234567890", "iconUrl": "https://x/1.jpg",
                "version": "2.1", "releaseNotes": "Faster",
            ],
            [
                "serial": 11, "at": "2026-11-30T08:00:00Z", "kind": "price", "id": 2_222_222_222,
                "name": "Coffee Log", "platform": "macos", "storeUrl": "https://apps.apple.com/us/app/id2222222222",
                "iconUrl": "https://x/2.jpg", "formattedPrice": "$0.99", "previousFormattedPrice": "$1.99",
            ],
        ],
    ]

    @Test("sends storefront, host, since and limit under their wire names; --json prints the reply as it came")
    func parametersAndJSON() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Changes": .reply(Self.reply)])
        defer { daemon.stop() }
        let result = try daemon.run([
            "--json", "changes", "--storefront", "USA", "--host", "com.example.NoteJar", "--since", "10", "--limit=2",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let call = try #require(daemon.calls.first)
        #expect(call.method == "io.showcase.Roster.Changes")
        #expect(call.parameters["storefront"] == "us")
        #expect(call.parameters["host"] == "com.example.NoteJar")
        #expect(call.parameters["since"] == 10)
        #expect(call.parameters["limit"] == 2)
        #expect(try JSONValue(parsing: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == Self.reply)
    }

    @Test("the table lists each change newest first with what changed, control characters escaped")
    func table() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Changes": .reply(Self.reply)])
        defer { daemon.stop() }
        let result = try daemon.run(["changes", "--storefront", "us"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "us · latest 12 · 2 changes · host com.example.NoteJar")
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[2].contains("updated") && lines[2].contains("version 2.1") && lines[2].contains("1234567890"))
        #expect(lines[3].contains("price") && lines[3].contains("$1.99 → $0.99"))
        #expect(!result.stdout.contains("\u{1B}"), "an upstream name must not reach the terminal raw")
        #expect(daemon.calls.first?.parameters["since"] == nil)
    }

    @Test("--locale is sent as locale; an empty roster of a storefront with languages names those that have entries")
    func locale() throws {
        let empty: JSONValue = [
            "storefront": "ca", "host": "h", "latest": 0, "changes": [], "language": "en",
            "languages": [["language": "en", "latest": 0], ["language": "fr", "latest": 3]],
        ]
        let daemon = try FakeDaemon(["io.showcase.Roster.Changes": .reply(empty)])
        defer { daemon.stop() }
        let result = try daemon.run(["changes", "--storefront", "ca", "--locale", "fr_CA"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(daemon.calls.first?.parameters["locale"] == "fr_CA")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "ca (en) · latest 0 · 0 changes · host h", "\(lines)")
        #expect(lines.last == "the fr roster has changes (latest 3): add --locale fr", "\(lines)")
        let plain = try daemon.run(["changes", "--storefront", "ca"])
        #expect(daemon.calls.last?.parameters["locale"] == nil)
        #expect(plain.status == 0)
        let refused = try daemon.run(["changes", "--storefront", "ca", "--locale", "français"])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--locale must be a language tag"))
    }

    @Test(
        "bad input: a limit out of range is a usage error before any call, the daemon's refusals exit 65",
        arguments: [
            (["--limit", "0"], 64), (["--limit", "1001"], 64), (["--since", "-1"], 64), (["--since", "x"], 64),
        ])
    func usage(arguments: [String], status: Int) throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Changes": .reply(Self.reply)])
        defer { daemon.stop() }
        let result = try daemon.run(["changes", "--storefront", "us"] + arguments)
        #expect(Int(result.status) == status, "stderr: \(result.stderr)")
        #expect(daemon.calls.isEmpty)
    }

    @Test("UnknownHost and InvalidParameter from the daemon exit 65")
    func refusals() throws {
        for (error, parameters) in [
            ("io.showcase.Roster.UnknownHost", JSONValue.object(["host": .string("com.example.Nope")])),
            ("org.varlink.service.InvalidParameter", JSONValue.object(["parameter": .string("limit")])),
        ] {
            let daemon = try FakeDaemon(["io.showcase.Roster.Changes": .error(error, parameters)])
            defer { daemon.stop() }
            let result = try daemon.run(["changes", "--storefront", "us"])
            #expect(result.status == 65, "\(error): \(result.stderr)")
        }
    }
}
