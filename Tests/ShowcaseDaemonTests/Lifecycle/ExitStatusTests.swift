import Foundation
@preconcurrency import Glibc
import ShowcaseCore
import Testing

/// `showcased`'s exit statuses through the real binary (its --help lists them): 64 for a usage error, 71 when
/// the socket cannot be served, 0 after SIGINT as after SIGTERM.
@Suite("Exit statuses", .serialized)
struct ExitStatusTests {
    @Test("an unknown flag exits 64 with one line naming it, not the whole usage, before touching the socket")
    func unknownFlagIsUsage() throws {
        let bed = try TestBed()
        try bed.writeConfig()
        let process = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL, arguments: ["--no-such-flag"],
            waitForSocket: false)
        #expect(try process.waitForExit() == 64)
        #expect(process.log == "showcased: unknown option '--no-such-flag'; see showcased --help\n", "\(process.log)")
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath))
    }

    @Test(
        "a mistyped flag is answered with the flag it most likely meant and exit 64",
        arguments: [
            ("-v", "showcased: unknown option '-v'; did you mean '-V' (--version)?\n"),
            ("--conifg=/etc/x.yaml", "showcased: unknown option '--conifg'; did you mean '--config'?\n"),
            ("--cache-dri", "showcased: unknown option '--cache-dri'; did you mean '--cache-dir'?\n"),
        ])
    func mistypedFlag(flag: String, expected: String) throws {
        let bed = try TestBed()
        let log = bed.directory.appendingPathComponent("typo.log")
        let process = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: log, arguments: [flag], waitForSocket: false)
        #expect(try process.waitForExit() == 64)
        #expect(process.log == expected)
    }

    @Test(
        "--version and -V print the version and exit 0 without reading the configuration",
        arguments: ["--version", "-V"])
    func version(flag: String) throws {
        let bed = try TestBed()
        let process = try DaemonProcess(
            config: bed.directory.appendingPathComponent("absent.yaml"), socketPath: bed.socketPath,
            logFile: bed.logURL, arguments: [flag], waitForSocket: false)
        #expect(try process.waitForExit() == 0)
        #expect(process.log == "showcased \(ShowcaseVersion.string)\n")
    }

    @Test("an unknown flag holding ESC and a line break is quoted escaped in the usage error")
    func unknownFlagEscaped() throws {
        let bed = try TestBed()
        try bed.writeConfig()
        let process = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL,
            arguments: ["--no\u{1B}[2J\nsuch"], waitForSocket: false)
        #expect(try process.waitForExit() == 64)
        #expect(process.log.contains("--no\\x1b[2J\\x0asuch"), "\(process.log.debugDescription)")
        #expect(!process.log.contains("\u{1B}"))
    }

    @Test("without --socket or socket.path the daemon binds $SHOWCASE_SOCKET; a relative one exits 78 naming it")
    func socketVariable() throws {
        let bed = try TestBed()
        try bed.writeConfig()
        // The same configuration without socket.path, so the default decides.
        let text = try String(contentsOf: bed.configURL, encoding: .utf8)
        try text.replacingOccurrences(of: "  path: \(bed.socketPath)\n", with: "")
            .write(to: bed.configURL, atomically: true, encoding: .utf8)
        let chosen = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL,
            environment: ["SHOWCASE_SOCKET": bed.socketPath, "RUNTIME_DIRECTORY": bed.directory.path + "/rt"],
            passSocket: false)
        #expect(try chosen.stop() == 0)

        let relativeLog = bed.directory.appendingPathComponent("relative.log")
        let relative = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: relativeLog,
            environment: ["SHOWCASE_SOCKET": "showcased.sock"], waitForSocket: false, passSocket: false)
        #expect(try relative.waitForExit() == 78)
        #expect(relative.log.contains("SHOWCASE_SOCKET must be an absolute path, found 'showcased.sock'"))

        // --socket wins, so the variable is not consulted at all.
        let flagged = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.directory.appendingPathComponent("f.log"),
            environment: ["SHOWCASE_SOCKET": "showcased.sock"])
        #expect(try flagged.stop() == 0)
    }

    @Test("a flag missing its value exits 64")
    func missingValueIsUsage() throws {
        let bed = try TestBed()
        try bed.writeConfig()
        let process = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL, arguments: ["--cache-dir"],
            waitForSocket: false)
        #expect(try process.waitForExit() == 64, "\(process.log)")
        #expect(process.log.contains("usage: showcased"), "\(process.log)")
    }

    @Test("a socket another showcased is serving is not taken over: the second exits 71, the first keeps serving")
    func socketInUseExits71() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let secondLog = bed.directory.appendingPathComponent("second.log")
        // A cache directory of its own: the first daemon's would refuse it before the socket (CacheLockTests).
        let secondCache = bed.directory.appendingPathComponent("second-cache").path
        let second = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: secondLog,
            arguments: ["--cache-dir", secondCache], waitForSocket: false)
        #expect(try second.waitForExit() == 71, "\(second.log)")
        #expect(second.log.contains(bed.socketPath), "the error names the socket: \(second.log)")
        #expect(try bed.get("de").string("state") == "fresh")
        #expect(bed.daemon!.process.isRunning)
    }

    @Test("a socket path that cannot be created exits 71 and says why")
    func unusableSocketPathExits71() throws {
        let bed = try TestBed()
        try bed.writeConfig()
        // The socket's directory would have to be created below a regular file.
        let blocker = bed.directory.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        let path = blocker.appendingPathComponent("showcased.sock").path
        let process = try DaemonProcess(
            config: bed.configURL, socketPath: path, logFile: bed.logURL, waitForSocket: false)
        #expect(try process.waitForExit() == 71, "\(process.log)")
        #expect(process.log.contains(path) || process.log.contains(blocker.path), "\(process.log)")
    }

    @Test("SIGINT stops the daemon cleanly: exit 0 and its socket file removed")
    func sigintStopsCleanly() throws {
        let bed = try TestBed()
        let daemon = try bed.start()
        try bed.waitUntilWarm()
        daemon.send(SIGINT)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath))
    }
}
