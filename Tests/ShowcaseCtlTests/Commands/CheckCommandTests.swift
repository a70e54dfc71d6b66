import Foundation
import Testing
import Varlink

/// `showcasectl check` and `metrics` against a fake daemon: answers the real daemon cannot be made to give
/// (a state this version does not know, a reply missing a field, an error reply) and the exact output.
@Suite("showcasectl check and metrics against a fake daemon")
struct CheckCommandTests {
    static func health(state: String = "ok", storefronts: [JSONValue]) -> JSONValue {
        ["state": .string(state), "refreshIntervalSeconds": 86_400, "storefronts": .array(storefronts)]
    }

    @Test(
        "an answer check cannot read is UNKNOWN (3): an unknown state, a missing field, an error reply",
        arguments: [
            (
                FakeDaemon.Answer.reply(health(storefronts: [["code": "de", "state": "sideways"]])),
                "de in state 'sideways'"
            ),
            (.reply(health(state: "confused", storefronts: [])), "daemon state 'confused'"),
            (.reply(["state": "ok", "storefronts": []]), "refreshIntervalSeconds"),
            (.error("org.varlink.service.PermissionDenied", [:]), "SHOWCASE UNKNOWN - "),
        ])
    func unexpectedAnswersAreUnknown(answer: FakeDaemon.Answer, mentions: String) throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Health": answer])
        defer { daemon.stop() }
        let result = try daemon.run(["check"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stdout.hasPrefix("SHOWCASE UNKNOWN - "), "\(result)")
        #expect(result.stdout.contains(mentions), "\(result)")
        #expect(result.stdout.split(separator: "\n").count == 1, "\(result)")
    }

    @Test("the plugin line: counts, each problem, and perfdata with the oldest age against interval and max age")
    func exactLine() throws {
        let reply = Self.health(
            state: "degraded",
            storefronts: [
                ["code": "de", "state": "fresh", "ageSeconds": 600],
                ["code": "jp", "state": "stale", "ageSeconds": 90_000],
                ["code": "us", "state": "warming"],
            ])
        let daemon = try FakeDaemon(["io.showcase.Roster.Health": .reply(reply)])
        defer { daemon.stop() }
        let result = try daemon.run(["check"])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout
                == "SHOWCASE WARNING - 3 storefronts: 1 fresh, 1 stale, 1 warming; jp stale for 25h; "
                + "us warming (never fetched yet) | fresh=1;;;0 stale=1;;;0 warming=1;;;0 unavailable=0;;;0 "
                + "failed=0;;;0 oldest_age=90000s;86400;172800;0\n")
        let json = try daemon.run(["--json", "check"])
        #expect(json.status == 1)
        #expect(try JSONValue(parsing: json.stdout.trimmingCharacters(in: .newlines)) == reply)
        let tight = try daemon.run(["check", "--max-age", "1d"])
        #expect(tight.status == 2, "\(tight)")
        #expect(tight.stdout.contains("jp stale for 25h, past the max age of 24h"), "\(tight)")
        let bad = try daemon.run(["check", "--max-age", "soon"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("--max-age must be a duration"), "\(bad)")
    }

    @Test("a reported problem (a change history set aside) is a WARNING naming its kind, host and storefront")
    func problemsWarn() throws {
        var reply = Self.health(state: "degraded", storefronts: [["code": "us", "state": "fresh", "ageSeconds": 60]])
        if case .object(var members) = reply {
            members["problems"] = [
                ["kind": "history", "host": "io.example.NoteJar", "storefront": "us", "detail": "set aside"]
            ]
            reply = .object(members)
        }
        let daemon = try FakeDaemon(["io.showcase.Roster.Health": .reply(reply)])
        defer { daemon.stop() }
        let result = try daemon.run(["check"])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.hasPrefix(
                "SHOWCASE WARNING - 1 storefront: 1 fresh; history problem (io.example.NoteJar us) | "),
            "\(result)")
    }

    @Test("metrics prints the exposition text as sent, and --json the reply")
    func metricsText() throws {
        let text =
            "# HELP showcase_config_generation G.\n# TYPE showcase_config_generation gauge\n"
            + "showcase_config_generation 3\n"
        let daemon = try FakeDaemon(["io.showcase.Admin.Metrics": .reply(["text": .string(text)])])
        defer { daemon.stop() }
        let result = try daemon.run(["metrics"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == text)
        let json = try daemon.run(["--json", "metrics"])
        #expect(try JSONValue(parsing: json.stdout.trimmingCharacters(in: .newlines)) == ["text": .string(text)])
    }
}
