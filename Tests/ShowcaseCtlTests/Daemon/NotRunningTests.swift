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

    @Test(
        "a user who is not root is told to start their own daemon, not the system service they cannot start",
        .enabled(if: getuid() == 0 && Tool.find("setpriv") != nil, "needs root and setpriv to act as another user"))
    func missingSocketAsUser() throws {
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("showcased.sock").path
        let asNobody = [try #require(Tool.find("setpriv")), "--reuid=65534", "--regid=65534", "--clear-groups"]
        let result = try Ctl.run(["--socket", socket, "status"], prefix: asNobody)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "start your own with: showcased (or systemctl --user start showcased), or ask an administrator to "
                    + "run: systemctl start showcased"), "\(result.stderr)")
        #expect(!result.stderr.contains("start it with: systemctl start showcased"))
    }

    // The per-user default ($XDG_RUNTIME_DIR/showcase/showcased.sock) and its fallback to the system
    // socket are tested as uid 65534 in SystemSocketFallbackTests; this process may be root.
    @Test("without --socket, $RUNTIME_DIRECTORY (systemd) decides where the socket is looked for")
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
