import Foundation
@preconcurrency import Glibc
import Testing

/// `showcased`'s exit statuses through the real binary (its --help lists them): 64 for a usage error, 71 when
/// the socket cannot be served, 0 after SIGINT as after SIGTERM.
@Suite("Exit statuses", .serialized)
struct ExitStatusTests {
    @Test("an unknown flag exits 64 with the usage on stderr, before touching the socket")
    func unknownFlagIsUsage() throws {
        let bed = try TestBed()
        try bed.writeConfig()
        let process = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL, arguments: ["--no-such-flag"],
            waitForSocket: false)
        #expect(try process.waitForExit() == 64)
        #expect(process.log.contains("--no-such-flag"), "the message names the flag: \(process.log)")
        #expect(process.log.contains("usage: showcased"), "\(process.log)")
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath))
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
