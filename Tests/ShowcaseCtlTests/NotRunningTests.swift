import Foundation
import Testing

/// When no daemon answers, the user is told where the client looked and how to start it (69).
@Suite("showcasectl without a daemon")
struct NotRunningTests {
    @Test(
        "a missing socket exits 69 naming the path and how to start the daemon",
        arguments: [["status"], ["roster", "--storefront", "jp"], ["reload"], ["storefronts"], ["watch"]])
    func missingSocket(arguments: [String]) throws {
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("showcased.sock").path
        let result = try Ctl.run(["--socket", socket] + arguments)
        #expect(result.status == 69)
        #expect(result.stderr.contains("showcased is not running (no socket at \(socket))"))
        #expect(result.stderr.contains("start it with: systemctl start showcased"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stdout.isEmpty)
    }

    @Test("without --socket the default is $XDG_RUNTIME_DIR/showcase/showcased.sock for a user")
    func defaultSocketForUser() throws {
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = Ctl.baseEnvironment(runtimeDirectory: dir.path)
        // Root's default is /run/showcase; RUNTIME_DIRECTORY (systemd) wins over both.
        environment["RUNTIME_DIRECTORY"] = dir.path + "/rt"
        let result = try Ctl.run(["status"], environment: environment)
        #expect(result.status == 69)
        #expect(result.stderr.contains(dir.path + "/rt/showcased.sock"))
    }

    @Test("a socket file nobody listens on (left by a crash) exits 69")
    func staleSocket() throws {
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("stale.sock").path
        try StaleSocket.create(at: path)
        let result = try Ctl.run(["--socket", path, "storefronts"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("showcased is not running"))
        #expect(result.stderr.contains(path))
    }

    @Test("the version command works without a daemon and says it is not reachable")
    func versionWithoutDaemon() throws {
        let result = try Ctl.run(["version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("showcasectl "))
        #expect(result.stdout.contains("not reachable"))
    }
}
