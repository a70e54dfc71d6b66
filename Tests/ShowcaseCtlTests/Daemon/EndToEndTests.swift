import Foundation
import Testing
import Varlink

/// showcasectl against the real showcased and a loopback replay of Fixtures/lookup: every command,
/// and the exit statuses a real daemon produces.
/// A missing or broken binary fails every test here (RealDaemon.requireBuilt), never skips them.
@Suite("showcasectl against the real daemon", .serialized)
struct EndToEndTests {
    @Test("roster waits for the first fetch and prints the storefront's apps, localized, with taglines")
    func roster() throws {
        let daemon = try RealDaemon(overlay: "taglines:\n  1641000103: \"Light for the long watch\"\n")
        defer { daemon.stop() }
        let result = try daemon.run(["roster", "--storefront", "DEU", "--wait", "10"])
        #expect(result.status == 0, "stderr: \(result.stderr)\n\(daemon.log)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("de · fresh · fetched") == true)
        #expect(result.stdout.contains("Lanternlight"))
        #expect(result.stdout.contains("Light for the long watch"))
        #expect(result.stdout.contains("Gratis"))
        // The host app never lists itself; Mac apps are not in the iOS roster.
        #expect(!result.stdout.contains("1641000102"))
        #expect(!result.stdout.contains("1641000201"))
        #expect(Set(lines.dropFirst().map(Width.of)).count == 1)
    }

    @Test("--json prints what Roster.Get and Storefronts answer, parameter for parameter")
    func jsonMatchesTheDaemon() throws {
        let daemon = try RealDaemon()
        defer { daemon.stop() }
        let warm = try daemon.run(["roster", "--storefront", "de", "--wait", "10"])
        #expect(warm.status == 0)
        let cli = try daemon.run([
            "--json", "roster", "--storefront", "de", "--platform", "macos", "--os-version", "12.0",
        ])
        #expect(cli.status == 0, "stderr: \(cli.stderr)")
        let direct = try daemon.call(
            "io.showcase.Roster.Get", ["storefront": "de", "platform": "macos", "osVersion": "12.0"])
        #expect(try JSONValue(parsing: cli.stdout.trimmingCharacters(in: .newlines)) == direct)
        let apps = direct["apps"]?.arrayValue ?? []
        #expect(!apps.isEmpty && apps.allSatisfy { $0["platform"] == "macos" })

        let storefronts = try daemon.run(["--json", "storefronts"])
        #expect(storefronts.status == 0)
        let parsed = try JSONValue(parsing: storefronts.stdout.trimmingCharacters(in: .newlines))
        #expect(parsed == (try daemon.call("io.showcase.Roster.Storefronts")))
        #expect((parsed["storefronts"]?.arrayValue?.count ?? 0) > 100)
    }

    @Test("app prints one app, and exits 1 for an app absent from that storefront")
    func app() throws {
        let daemon = try RealDaemon(storefronts: ["de", "jp"])
        defer { daemon.stop() }
        // GetApp does not wait for a first fetch; roster --wait does.
        #expect(try daemon.run(["roster", "--storefront", "de", "--wait", "10"]).status == 0)
        let found = try daemon.run(["app", "1641000103", "--storefront", "de"])
        #expect(found.status == 0, "stderr: \(found.stderr)")
        #expect(found.stdout.contains("Lanternlight"))
        // Galley is not sold in Japan (Fixtures/README.md).
        _ = try daemon.run(["roster", "--storefront", "jp", "--wait", "10"])
        let absent = try daemon.run(["app", "1641000104", "--storefront", "jp"])
        #expect(absent.status == 1)
        #expect(absent.stderr.contains("app 1641000104 is not in the jp roster"))
    }

    @Test("unknown host exits 65; a warming roster after --wait exits 75")
    func badInputAndWarming() throws {
        let daemon = try RealDaemon()
        defer { daemon.stop() }
        let unknownHost = try daemon.run(["roster", "--storefront", "de", "--host", "com.example.Nope"])
        #expect(unknownHost.status == 65)
        #expect(unknownHost.stderr.contains("com.example.Nope"))
        // Every lookup for jp hangs longer than the wait: jp is still warming when the answer comes.
        try daemon.injectFault(["delayMs": "3000"], matching: "country=jp")
        let warming = try daemon.run(["roster", "--storefront", "jp", "--wait", "0.3"])
        #expect(warming.status == 75, "stdout: \(warming.stdout) stderr: \(warming.stderr)")
        #expect(warming.stdout.hasPrefix("jp · warming"))
        #expect(warming.stderr.contains("still warming"))
    }

    @Test("a malformed upstream body makes refresh exit 1 and the roster answer the diagnostic (1)")
    func upstreamDiagnostics() throws {
        let daemon = try RealDaemon()
        defer { daemon.stop() }
        #expect(try daemon.run(["roster", "--storefront", "de", "--wait", "10"]).status == 0)
        try daemon.injectFault(["body": "malformed.html"], matching: "country=de")
        let refresh = try daemon.run(["refresh", "--storefront", "de"])
        #expect(refresh.status == 1, "stdout: \(refresh.stdout) stderr: \(refresh.stderr)")
        #expect(refresh.stderr.contains("refresh failed for de"))
        let roster = try daemon.run(["roster", "--storefront", "de"])
        #expect(roster.status == 1)
        #expect(roster.stderr.contains("malformed response for de"))
        try daemon.clearFaults()
        #expect(try daemon.run(["refresh", "--storefront", "de"]).status == 0)
        #expect(try daemon.run(["roster", "--storefront", "de"]).status == 0)
    }

    @Test("status summarises the daemon and each storefront; refresh reports what it fetched")
    func statusAndRefresh() throws {
        let daemon = try RealDaemon()
        defer { daemon.stop() }
        let refresh = try daemon.run(["refresh"])
        #expect(refresh.status == 0, "stderr: \(refresh.stderr)")
        #expect(refresh.stdout.contains("refreshed: de, us"))
        let status = try daemon.run(["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("(generation 1)"))
        #expect(status.stdout.split(separator: "\n").contains { $0.hasPrefix("de ") && $0.contains("fresh") })
        let json = try daemon.run(["--json", "status"])
        let parsed = try JSONValue(parsing: json.stdout.trimmingCharacters(in: .newlines))
        #expect(parsed["configGeneration"] == 1)
        #expect(parsed["storefronts"]?.arrayValue?.count == 2)
    }

    @Test("reload: a broken overlay is rejected with file:line:column (78), a fixed one goes live")
    func reload() throws {
        let daemon = try RealDaemon()
        defer { daemon.stop() }
        try "taglines:\n  notejar: \"x\"\n".write(to: daemon.overlayURL, atomically: true, encoding: .utf8)
        let rejected = try daemon.run(["reload"])
        #expect(rejected.status == 78)
        let rejection = "showcasectl: reload rejected, the running configuration is unchanged: "
        #expect(rejected.stderr.hasPrefix(rejection + "\(daemon.overlayURL.path):2:3: "))
        try "taglines:\n  1641000103: \"Light\"\n".write(to: daemon.overlayURL, atomically: true, encoding: .utf8)
        let accepted = try daemon.run(["--json", "reload"])
        #expect(accepted.status == 0)
        #expect(try JSONValue(parsing: accepted.stdout.trimmingCharacters(in: .newlines)) == ["generation": 2])
    }

    @Test(
        "admin commands from a user not allowed exit 77; roster stays open to them",
        .enabled(if: getuid() == 0 && Tool.find("setpriv") != nil, "needs root and setpriv to act as another user"))
    func permissionDenied() throws {
        let daemon = try RealDaemon()
        defer { daemon.stop() }
        let asNobody = [try #require(Tool.find("setpriv")), "--reuid=65534", "--regid=65534", "--clear-groups"]
        for command in [["status"], ["reload"], ["refresh"]] {
            let result = try daemon.run(command, prefix: asNobody)
            #expect(result.status == 77, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("permission denied"))
        }
        #expect(try daemon.run(["roster", "--storefront", "de", "--wait", "10"], prefix: asNobody).status == 0)
    }

    @Test("watch streams the roster until Ctrl-C and exits 0; version names the daemon's version")
    func watchAndVersion() throws {
        let daemon = try RealDaemon()
        defer { daemon.stop() }
        #expect(try daemon.run(["roster", "--storefront", "de", "--wait", "10"]).status == 0)
        let (result, reason) = try WatchAndTerminalTests.runUntilLines(
            ["--socket", daemon.socketPath, "--json", "watch", "--storefront", "de"], lines: 1)
        #expect(reason == .exit)
        #expect(result.status == 0)
        let first = try JSONValue(parsing: String(result.stdout.split(separator: "\n")[0]))
        #expect(first["storefront"] == "de")
        #expect((first["apps"]?.arrayValue?.count ?? 0) > 0)
        let version = try daemon.run(["version"])
        #expect(version.status == 0)
        let info = try daemon.call("org.varlink.service.GetInfo")
        #expect(version.stdout.contains("showcased \(info["version"]?.stringValue ?? "?")"))
    }

    @Test("export writes the tree and prints its counts; without export.directory it exits 78 naming the key")
    func export() throws {
        let daemon = try RealDaemon(exporting: true)
        defer { daemon.stop() }
        #expect(try daemon.run(["refresh"]).status == 0)
        let first = try daemon.run(["--json", "export"])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let reply = try JSONValue(parsing: first.stdout.trimmingCharacters(in: .newlines))
        #expect(reply["directory"]?.stringValue == daemon.exportDirectory.path)
        #expect(reply["errors"] == [])
        let document = daemon.exportDirectory.appendingPathComponent("v1/\(RealDaemon.host)/de/ios.json")
        #expect(FileManager.default.fileExists(atPath: document.path))
        let again = try daemon.run(["export"])
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("exported to \(daemon.exportDirectory.path): 0 written, "), "\(again.stdout)")
        #expect(again.stdout.hasSuffix(" unchanged, 0 removed\n"))

        let plain = try RealDaemon()
        defer { plain.stop() }
        let missing = try plain.run(["export"])
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("export.directory"))
        #expect(missing.stdout.isEmpty)
    }

    @Test("after the daemon stops, commands exit 69 and say how to start it")
    func afterStop() throws {
        let daemon = try RealDaemon()
        let socket = daemon.socketPath
        let environment = Ctl.baseEnvironment(runtimeDirectory: "/tmp")
        daemon.stop()
        let result = try Ctl.run(["--socket", socket, "roster", "--storefront", "de"], environment: environment)
        #expect(result.status == 69)
        #expect(result.stderr.contains("showcased is not running"))
        #expect(result.stderr.contains("systemctl start showcased"))
    }
}
