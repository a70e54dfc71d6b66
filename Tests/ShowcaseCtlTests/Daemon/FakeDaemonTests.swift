import Foundation
import ShowcaseCore
import Testing
import Varlink

/// Output formats, parameters sent and exit statuses, against a fake daemon that answers as docs/protocol.md describes
/// methods with canned replies and errors.
@Suite("showcasectl against a fake daemon")
struct FakeDaemonTests {
    static func parse(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(
        "--json prints exactly the reply parameters of each method as one document",
        arguments: [
            (["roster", "--storefront", "de"], "io.showcase.Roster.Get"),
            (["app", "1234567890", "--storefront", "de"], "io.showcase.Roster.GetApp"),
            (["storefronts"], "io.showcase.Roster.Storefronts"),
            (["status"], "io.showcase.Admin.Status"),
            (["reload"], "io.showcase.Admin.Reload"),
            (["refresh"], "io.showcase.Admin.Refresh"),
            (["export"], "io.showcase.Admin.Export"),
        ])
    func jsonIsTheReply(arguments: [String], method: String) throws {
        let replies: [String: JSONValue] = [
            "io.showcase.Roster.Get": Canned.roster(),
            "io.showcase.Roster.GetApp": ["app": Canned.apps[0]],
            "io.showcase.Roster.Storefronts": Canned.storefronts,
            "io.showcase.Admin.Status": Canned.status(),
            "io.showcase.Admin.Reload": ["generation": 4],
            "io.showcase.Admin.Refresh": ["refreshed": ["de", "us"], "failed": []],
            "io.showcase.Admin.Export": [
                "directory": "/var/lib/showcase/export", "written": 2, "unchanged": 344, "removed": 0, "errors": [],
            ],
        ]
        let daemon = try FakeDaemon(replies.mapValues { .reply($0) })
        defer { daemon.stop() }
        let result = try daemon.run(["--json"] + arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(try Self.parse(result.stdout) == replies[method])
        #expect(daemon.calls.map(\.method) == [method])
    }

    @Test("roster sends the storefront as lowercase alpha-2 and every filter under its wire name")
    func rosterParameters() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .reply(Canned.roster())])
        defer { daemon.stop() }
        let result = try daemon.run([
            "roster", "--storefront=DEU", "--host", "com.example.NoteJar", "--platform", "macOS",
            "--device", "iPad", "--os-version=14.2", "--locale", "de-AT", "--wait", "2.5",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let call = try #require(daemon.calls.first)
        #expect(call.parameters["storefront"] == "de")
        #expect(call.parameters["host"] == "com.example.NoteJar")
        #expect(call.parameters["platform"] == "macos")
        #expect(call.parameters["device"] == "ipad")
        #expect(call.parameters["osVersion"] == "14.2")
        #expect(call.parameters["locale"] == "de-AT")
        #expect(call.parameters["waitMs"] == .int(2500))
    }

    @Test("a roster without filters sends only the storefront, leaving defaults to the daemon")
    func rosterDefaults() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .reply(Canned.roster())])
        defer { daemon.stop() }
        #expect(try daemon.run(["roster", "--storefront", "jpn"]).status == 0)
        #expect(daemon.calls.first?.parameters == ["storefront": "jp"])
    }

    @Test("the human roster has the state line on top and an aligned table")
    func humanRoster() throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .reply(Canned.roster())])
        defer { daemon.stop() }
        let result = try daemon.run(["roster", "--storefront", "de"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("de · fresh · fetched 3 h ago · 3 apps") == true)
        let table = Array(lines.dropFirst())
        #expect(table.count == 4)
        for title in ["NAME", "PRICE", "GENRE", "PLATFORM", "FLOOR", "TAGLINE", "ID"] {
            #expect(table[0].contains(title))
        }
        // ID is the right-aligned last column: every row ends at the same terminal column, even
        // with Japanese names that take two columns per character.
        #expect(Set(table.map(Width.of)).count == 1, "rows differ in width:\n\(table.joined(separator: "\n"))")
        #expect(table[1].hasPrefix("NoteJar "))
        #expect(table[1].contains("Notizen im Glas"))
        #expect(table[2].contains("2,99 €"))
        #expect(table[3].hasPrefix("メモ瓶 "))
        // Columns line up: "PRICE" starts where each price starts.
        let priceColumn = Width.of(String(table[0].prefix(upTo: table[0].range(of: "PRICE")!.lowerBound)))
        #expect(Width.of(String(table[3].prefix(upTo: table[3].range(of: "Gratis")!.lowerBound))) == priceColumn)
        #expect(!result.stdout.contains("\u{1B}"), "colour written to a pipe")
    }

    @Test("an empty roster in state fresh or stale is a success", arguments: ["fresh", "stale"])
    func emptyRoster(state: String) throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .reply(Canned.roster(state: state, apps: []))])
        defer { daemon.stop() }
        let result = try daemon.run(["roster", "--storefront", "de"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("de · \(state) · fetched 3 h ago · 0 apps"))
    }

    @Test("a roster still warming after --wait exits 75, still printing what the daemon said")
    func warming() throws {
        let daemon = try FakeDaemon([
            "io.showcase.Roster.Get": .reply(Canned.roster(state: "warming", secondsAgo: nil, apps: []))
        ])
        defer { daemon.stop() }
        let human = try daemon.run(["roster", "--storefront", "de", "--wait", "1"])
        #expect(human.status == 75)
        #expect(human.stdout.hasPrefix("de · warming · not fetched yet · 0 apps"))
        #expect(human.stderr.contains("still warming"))
        #expect(human.stderr.contains("--wait"))
        let json = try daemon.run(["--json", "roster", "--storefront", "de", "--wait", "1"])
        #expect(json.status == 75)
        #expect(try Self.parse(json.stdout)["state"] == "warming")
        #expect(daemon.calls.map { $0.parameters["waitMs"] } == [.int(1000), .int(1000)])
    }

    @Test("a --wait past the contract's cap reports the minute the daemon held the call, not the wait asked for")
    func waitPastTheCap() throws {
        let daemon = try FakeDaemon([
            "io.showcase.Roster.Get": .reply(Canned.roster(state: "warming", secondsAgo: nil, apps: []))
        ])
        defer { daemon.stop() }
        let result = try daemon.run(["roster", "--storefront", "de", "--wait", "600"])
        #expect(result.status == 75)
        #expect(result.stderr.contains("still warming after waiting 1 min;"), "\(result.stderr)")
        // Sent as asked: capping is the daemon's rule (RosterGetRequest.maxWaitMs), the client only reports it.
        #expect(daemon.calls.map { $0.parameters["waitMs"] } == [.int(600_000)])
    }

    @Test(
        "each daemon error maps to the exit status of the contract with a one-line message",
        arguments: [
            ("io.showcase.Roster.UnknownStorefront", ["storefront": "zz"], 65, "zz"),
            ("io.showcase.Roster.UnknownHost", ["host": "com.example.Nope"], 65, "com.example.Nope"),
            ("org.varlink.service.InvalidParameter", ["parameter": "osVersion"], 65, "osVersion"),
            (
                "io.showcase.Roster.HostAppNotFound", ["host": "com.example.NoteJar", "storefront": "de"], 1,
                "bundle_id"
            ),
            (
                "io.showcase.Roster.MalformedResponse", ["storefront": "de", "detail": "results is not an array"], 1,
                "results is not an array"
            ),
            ("io.showcase.Roster.MissingEntityParameter", ["storefront": "de"], 1, "entity=software"),
            (
                "io.showcase.Roster.Unavailable", ["storefront": "de", "reason": "connection refused"], 1,
                "connection refused"
            ),
            (
                "io.showcase.Roster.Unavailable",
                ["storefront": "de", "reason": "the de roster is still warming; retry in a moment"], 1,
                "nothing is cached for de: the de roster is still warming; retry in a moment; fetch it again with: "
            ),
            ("io.showcase.Roster.AppNotFound", ["id": 42, "storefront": "de"], 1, "app 42"),
            ("org.varlink.service.PermissionDenied", [:], 77, "socket.admin_uids"),
        ] as [(String, JSONValue, Int32, String)])
    func errorMapping(name: String, parameters: JSONValue, status: Int32, mention: String) throws {
        let daemon = try FakeDaemon(["io.showcase.Roster.Get": .error(name, parameters)])
        defer { daemon.stop() }
        for json in [false, true] {
            let result = try daemon.run((json ? ["--json"] : []) + ["roster", "--storefront", "de"])
            #expect(result.status == status)
            #expect(result.stderr.contains(mention), "stderr: \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stderr.hasPrefix("showcasectl: "))
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("an admin command refused by the daemon exits 77 saying who may run it")
    func adminDenied() throws {
        let denied = FakeDaemon.Answer.error("org.varlink.service.PermissionDenied", [:])
        let daemon = try FakeDaemon([
            "io.showcase.Admin.Status": denied, "io.showcase.Admin.Reload": denied, "io.showcase.Admin.Refresh": denied,
            "io.showcase.Admin.Export": denied,
        ])
        defer { daemon.stop() }
        for command in ["status", "reload", "refresh", "export"] {
            let result = try daemon.run([command])
            #expect(result.status == 77)
            #expect(result.stderr.contains("permission denied"))
            #expect(result.stderr.contains("root"))
        }
    }

    @Test(
        "a rejected reload says nothing changed, then names file, line and column, ending on the message (78)",
        arguments: [
            (7, 3, "expected an app id, found 'notejar'"),
            // A question ends the line: never "did you mean 'excluded'?; …".
            (2, 1, "unknown key 'exclude'; did you mean 'excluded'?"),
        ])
    func reloadRejected(line: Int, column: Int, message: String) throws {
        let daemon = try FakeDaemon([
            "io.showcase.Admin.Reload": .error(
                "io.showcase.Admin.ConfigInvalid",
                [
                    "file": "/etc/showcase/overlay.yaml", "line": .int(Int64(line)), "column": .int(Int64(column)),
                    "message": .string(message),
                ])
        ])
        defer { daemon.stop() }
        let result = try daemon.run(["reload"])
        #expect(result.status == 78)
        #expect(
            result.stderr
                == "showcasectl: reload rejected, the running configuration is unchanged: "
                + "/etc/showcase/overlay.yaml:\(line):\(column): \(message)\n")
    }

    @Test("Unavailable quotes the daemon's reason once, not nested in a second sentence saying the same")
    func unavailableSentence() throws {
        let reason =
            "the lookup endpoint answered HTTP 500; it will be retried (check lookup.endpoint if this persists)"
        let daemon = try FakeDaemon([
            "io.showcase.Roster.Get": .error(
                "io.showcase.Roster.Unavailable", ["storefront": "de", "reason": .string(reason)])
        ])
        defer { daemon.stop() }
        let result = try daemon.run(["roster", "--storefront", "de"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "showcasectl: nothing is cached for de: \(reason); fetch it again with: "
                + "showcasectl refresh --storefront de\n")
    }

    @Test("a successful reload reports the new generation")
    func reloadAccepted() throws {
        let daemon = try FakeDaemon(["io.showcase.Admin.Reload": .reply(["generation": 12])])
        defer { daemon.stop() }
        let result = try daemon.run(["reload"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("generation 12"))
    }

    @Test(
        "a failed refresh says, per storefront, whether a cached roster is still served or nothing is cached",
        arguments: [
            ("stale", "its cached roster is still served"),
            ("unavailable", "nothing is cached for it, so it answers Unavailable until a refresh succeeds"),
            ("warming", "nothing is cached for it, so it answers Unavailable until a refresh succeeds"),
            ("failed", "its diagnostic is answered instead of a roster"),
        ])
    func refreshSaysWhatIsServed(state: String, sentence: String) throws {
        let status = Canned.status(storefronts: [
            [
                "code": "jp", "state": .string(state), "fetchedAt": .null, "nextRefreshAt": .null, "apps": 0,
                "lastError": "HTTP 503 from lookup", "droppedRows": 0, "truncated": false,
            ]
        ])
        let daemon = try FakeDaemon([
            "io.showcase.Admin.Refresh": .reply([
                "refreshed": [], "failed": [["storefront": "jp", "error": "HTTP 503 from lookup"]],
            ]),
            "io.showcase.Admin.Status": .reply(status),
        ])
        defer { daemon.stop() }
        let result = try daemon.run(["refresh", "--storefront", "jp"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "showcasectl: refresh failed for jp (HTTP 503 from lookup); \(sentence); "
                + "see showcasectl status for each storefront's last error\n")
    }

    @Test("refresh exits 1 when any storefront failed, naming it, and 0 when all succeeded")
    func refreshOutcome() throws {
        let failing = try FakeDaemon([
            "io.showcase.Admin.Refresh": .reply([
                "refreshed": ["de"], "failed": [["storefront": "jp", "error": "HTTP 503 from lookup"]],
            ])
        ])
        defer { failing.stop() }
        let failed = try failing.run(["refresh"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("jp (HTTP 503 from lookup)"))
        #expect(failed.stdout.contains("refreshed: de"))
        let json = try failing.run(["--json", "refresh", "--storefront", "JP"])
        #expect(json.status == 1)
        #expect(try Self.parse(json.stdout)["failed"]?.arrayValue?.count == 1)
        #expect(failing.calls.last { $0.method == "io.showcase.Admin.Refresh" }?.parameters == ["storefront": "jp"])

        let fine = try FakeDaemon(["io.showcase.Admin.Refresh": .reply(["refreshed": ["de", "jp"], "failed": []])])
        defer { fine.stop() }
        #expect(try fine.run(["refresh"]).status == 0)
        #expect(fine.calls.first?.parameters == [:])
    }

    @Test("export prints the directory and counts; exits 1 listing what failed, 78 naming export.directory")
    func exportOutcome() throws {
        let daemon = try FakeDaemon([
            "io.showcase.Admin.Export": .reply([
                "directory": "/srv/export", "written": 3, "unchanged": 340, "removed": 1, "errors": [],
            ])
        ])
        defer { daemon.stop() }
        let fine = try daemon.run(["export"])
        #expect(fine.status == 0, "stderr: \(fine.stderr)")
        #expect(fine.stdout == "exported to /srv/export: 3 written, 340 unchanged, 1 removed\n")
        #expect(fine.stderr.isEmpty)
        #expect(daemon.calls.map(\.method) == ["io.showcase.Admin.Export"])
        #expect(daemon.calls.first?.parameters == [:])

        let full = "could not write /srv/export/v1/index.json: No space left on device; the previous version stays"
        let failing = try FakeDaemon([
            "io.showcase.Admin.Export": .reply([
                "directory": "/srv/export", "written": 0, "unchanged": 12, "removed": 0, "errors": [.string(full)],
            ])
        ])
        defer { failing.stop() }
        let failed = try failing.run(["export"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("failed: \(full)"))
        #expect(failed.stderr.hasPrefix("showcasectl: the export is incomplete: 1 file could not be written"))
        #expect(failed.stderr.contains("No space left on device"))
        let json = try failing.run(["--json", "export"])
        #expect(json.status == 1)
        #expect(try Self.parse(json.stdout)["errors"]?.arrayValue == [.string(full)])

        let unconfigured = try FakeDaemon([
            "io.showcase.Admin.Export": .error("io.showcase.Admin.ExportNotConfigured", [:])
        ])
        defer { unconfigured.stop() }
        let missing = try unconfigured.run(["export"])
        #expect(missing.status == 78)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("no export.directory"))
        #expect(missing.stderr.contains("showcasectl reload"))
        #expect(missing.stderr.split(separator: "\n").count == 1)
    }

    @Test("status shows a summary and one line per storefront with state, age, next refresh and last error")
    func humanStatus() throws {
        let daemon = try FakeDaemon([
            "io.showcase.Admin.Status": .reply(Canned.status(lastReloadError: "overlay.yaml:2:1: unknown key"))
        ])
        defer { daemon.stop() }
        let result = try daemon.run(["status"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("showcased 0.1.0"))
        #expect(result.stdout.contains("/etc/showcase/showcase.yaml (generation 3)"))
        #expect(result.stdout.contains("42 requests, 2 failed, 1 throttled"))
        #expect(result.stdout.contains("overlay.yaml:2:1: unknown key"))
        let lines = result.stdout.split(separator: "\n")
        let de = try #require(lines.first { $0.hasPrefix("de ") })
        #expect(de.contains("fresh") && de.contains("3 h ago") && de.contains("in 21 h"))
        #expect(de.contains("3 (2 dropped, cut at 200)"), "\(de)")
        #expect(
            lines.contains("host com.example.Brew: com.example.Brew moved from developer 1 to developer 2222222222"))
        #expect(!result.stdout.contains("host com.example.NoteJar"))
        let jp = try #require(lines.first { $0.hasPrefix("jp ") })
        #expect(jp.contains("warming") && jp.contains("never") && jp.contains("lookup timed out after 10s"))
        #expect(!result.stdout.contains("export:"), "no export line without an export section")
    }

    @Test("status counts one upstream request in the singular")
    func oneRequest() throws {
        let status = Canned.status(upstream: ["requests": 1, "failures": 0, "throttled": 0])
        let daemon = try FakeDaemon(["io.showcase.Admin.Status": .reply(status)])
        defer { daemon.stop() }
        let result = try daemon.run(["status"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("upstream: 1 request, 0 failed, 0 throttled"), "\(result.stdout)")
    }

    @Test("status names each language of a multilingual storefront on its own line")
    func languageRows() throws {
        let row = { (language: String, error: JSONValue) -> JSONValue in
            [
                "code": "ca", "language": .string(language), "state": "fresh",
                "fetchedAt": .string(Canned.timestamp(secondsAgo: 60)), "nextRefreshAt": .null, "apps": 17,
                "lastError": error, "droppedRows": 0, "truncated": false,
            ]
        }
        let daemon = try FakeDaemon([
            "io.showcase.Admin.Status": .reply([
                "version": "0.1.0", "configPath": "/etc/showcase/showcase.yaml", "configGeneration": 1,
                "lastReloadError": .null, "upstream": ["requests": 3, "failures": 0, "throttled": 0],
                "storefronts": [row("en", .null), row("fr", "malformed")], "hosts": [],
            ])
        ])
        defer { daemon.stop() }
        let result = try daemon.run(["status"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("ca/en ") && $0.hasSuffix("-") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("ca/fr ") && $0.contains("malformed") }, "\(result.stdout)")
    }

    @Test("status shows the export directory, when its last pass ran, and its first error")
    func exportStatus() throws {
        let full = "could not write /srv/export/v1/index.json: No space left on device"
        let daemon = try FakeDaemon([
            "io.showcase.Admin.Status": .reply(
                Canned.status(export: [
                    "directory": "/srv/export", "exportedAt": .string(Canned.timestamp(secondsAgo: 120)),
                    "errors": 3, "lastError": .string(full),
                ]))
        ])
        defer { daemon.stop() }
        let result = try daemon.run(["status"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("export: /srv/export (last pass 2 min ago, 3 errors: \(full))"))
    }

    @Test("status lists each problem the daemon reports (a change history set aside) with its detail")
    func problemStatus() throws {
        var status = Canned.status()
        let detail = "the change history of com.example.NoteJar us was set aside as /var/lib/showcase/x.bad-1"
        if case .object(var members) = status {
            members["problems"] = [
                ["kind": "history", "host": "com.example.NoteJar", "storefront": "us", "detail": .string(detail)]
            ]
            status = .object(members)
        }
        let daemon = try FakeDaemon(["io.showcase.Admin.Status": .reply(status)])
        defer { daemon.stop() }
        let result = try daemon.run(["status"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("history problem: \(detail)"), "\(result.stdout)")
    }

    @Test("storefronts and app print readable tables")
    func humanStorefrontsAndApp() throws {
        let daemon = try FakeDaemon([
            "io.showcase.Roster.Storefronts": .reply(Canned.storefronts),
            "io.showcase.Roster.GetApp": .reply(["app": Canned.apps[1]]),
        ])
        defer { daemon.stop() }
        let storefronts = try daemon.run(["storefronts"])
        #expect(storefronts.status == 0)
        #expect(storefronts.stdout.contains("jp    JPN      no    Japan"))
        #expect(storefronts.stdout.contains("3 storefronts, 2 kept warm"))
        let app = try daemon.run(["app", "2222222222", "--storefront", "de"])
        #expect(app.status == 0)
        #expect(app.stdout.contains("Brew Ratio"))
        #expect(app.stdout.contains("2,99 €"))
        #expect(daemon.calls.last?.parameters == ["id": .int(2_222_222_222), "storefront": "de"])
    }

    @Test("app shows every field the table declares for it after the ones it always showed, - when the app lacks one")
    func appShowsTableFields() throws {
        let fields = AppField.all.filter { $0.surfaces.contains(.appView) }
        #expect(fields.map(\.name) == ["contentAdvisoryRating"])
        guard case .object(var rated) = Canned.apps[1] else { return }
        for field in fields { rated[field.name] = .string("12+ \(field.name)") }
        let daemon = try FakeDaemon(["io.showcase.Roster.GetApp": .reply(["app": .object(rated)])])
        defer { daemon.stop() }
        let app = try daemon.run(["app", "2222222222", "--storefront", "de"])
        #expect(app.status == 0)
        let lines = app.stdout.split(separator: "\n").suffix(fields.count).map(String.init)
        #expect(lines == fields.map { "\($0.label ?? $0.name): 12+ \($0.name)" }, "\(app.stdout)")
        #expect(lines.first?.hasPrefix("age rating: ") == true)
        let bare = try FakeDaemon(["io.showcase.Roster.GetApp": .reply(["app": Canned.apps[1]])])
        defer { bare.stop() }
        let without = try bare.run(["app", "2222222222", "--storefront", "de"])
        #expect(without.stdout.split(separator: "\n").last == "age rating: -", "\(without.stdout)")
    }

    @Test("version prints the client's and the daemon's versions")
    func version() throws {
        let daemon = try FakeDaemon([:], version: "9.8.7")
        defer { daemon.stop() }
        let result = try daemon.run(["version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("showcasectl "))
        #expect(result.stdout.contains("showcased 9.8.7"))
        let json = try Self.parse(try daemon.run(["--json", "version"]).stdout)
        #expect(json["showcased"]?["version"] == "9.8.7")
    }
}
