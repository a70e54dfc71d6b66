import Foundation
import Testing

/// SPEC §9: `SHOWCASE_SOCKET` names the socket when neither `--socket` nor `socket.path` does, ahead of
/// `$RUNTIME_DIRECTORY`, `/run` and the XDG defaults; empty it is ignored, relative it is an error naming it.
@Suite("SHOWCASE_SOCKET")
struct SocketVariableTests {
    @Test("it is the socket showcasectl talks to, ahead of RUNTIME_DIRECTORY; --socket still wins")
    func chosen() throws {
        let daemon = try FakeDaemon([:])
        defer { daemon.stop() }
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = Ctl.baseEnvironment(runtimeDirectory: dir.path)
        environment["RUNTIME_DIRECTORY"] = dir.path + "/rt"
        environment["SHOWCASE_SOCKET"] = daemon.socketPath
        let found = try Ctl.run(["version"], environment: environment)
        #expect(found.status == 0)
        #expect(found.stdout.contains("showcased 9.8.7 at \(daemon.socketPath)"), "\(found.stdout)")

        let elsewhere = dir.appendingPathComponent("other.sock").path
        let explicit = try Ctl.run(["--socket", elsewhere, "status"], environment: environment)
        #expect(explicit.status == 69)
        #expect(explicit.stderr.contains("no socket at \(elsewhere))"), "\(explicit.stderr)")
    }

    @Test("an empty SHOWCASE_SOCKET is ignored; a relative one exits 64 naming the variable")
    func emptyAndRelative() throws {
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = Ctl.baseEnvironment(runtimeDirectory: dir.path)
        environment["RUNTIME_DIRECTORY"] = dir.path + "/rt"
        environment["SHOWCASE_SOCKET"] = ""
        let empty = try Ctl.run(["status"], environment: environment)
        #expect(empty.status == 69)
        #expect(empty.stderr.contains(dir.path + "/rt/showcased.sock"), "\(empty.stderr)")

        environment["SHOWCASE_SOCKET"] = "run/showcased.sock"
        let relative = try Ctl.run(["status"], environment: environment)
        #expect(relative.status == 64)
        #expect(
            relative.stderr.hasPrefix(
                "showcasectl: SHOWCASE_SOCKET must be an absolute path, found 'run/showcased.sock'"),
            "\(relative.stderr)")
        #expect(try Ctl.run(["--socket", dir.path + "/x.sock", "status"], environment: environment).status == 69)
    }
}
