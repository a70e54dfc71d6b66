import Foundation
@preconcurrency import Glibc
import Testing

@Suite("Startup and shutdown", .serialized)
struct StartupTests {
    @Test("a warm start answers from the cache before any upstream request")
    func warmStartFromCache() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let warmed = try bed.get("de")
        #expect(!warmed.appIDs.isEmpty)
        try bed.daemon!.stop()

        bed.replay.clearRequests()
        bed.replay.inject(.status(500))  // any upstream request would fail and show in the log
        try bed.start()
        let answer = try bed.get("de")
        #expect(answer.error == nil)
        #expect(answer.string("state") == "fresh")
        #expect(answer.appIDs == warmed.appIDs)
        #expect(bed.requests().isEmpty, "requests before answering: \(bed.requests().map(\.target))")
    }

    @Test("a roster never fetched is reported as warming, never as an empty roster")
    func warmingIsReported() throws {
        let bed = try TestBed()
        bed.replay.inject(.delay(.seconds(3)))
        bed.timeout = "5s"
        try bed.start()
        let answer = try bed.get("de")
        #expect(answer.error == nil)
        #expect(answer.string("state") == "warming")
        #expect(answer.appIDs.isEmpty)
        #expect(answer["fetchedAt"] == nil)
    }

    @Test("an invalid configuration exits 78 naming file, line and column")
    func invalidConfigExits78() throws {
        let bed = try TestBed()
        bed.extra = "storefront: [de]\n"
        try bed.writeConfig()
        let process = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL, waitForSocket: false)
        let status = try process.waitForExit()
        #expect(status == 78)
        #expect(process.log.contains("\(bed.configURL.path):"), "log: \(process.log)")
        #expect(process.log.contains("storefront"))
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath))
    }

    @Test("SIGTERM exits 0 and removes the socket file it created")
    func sigtermStopsCleanly() throws {
        let bed = try TestBed()
        let daemon = try bed.start()
        _ = try bed.get("us")
        #expect(try daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath))
    }

    @Test("under socket activation it serves the socket systemd passed and leaves that file in place")
    func socketActivation() throws {
        let bed = try TestBed()
        try bed.writeConfig()
        let activated = bed.directory.appendingPathComponent("activated.sock").path
        let daemon = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL,
            launcher: ["/usr/bin/systemd-socket-activate", "-l", activated], listenPath: activated)
        bed.daemon = daemon
        let answer = try VarlinkTestClient(path: activated).call(
            "io.showcase.Roster.Get", ["storefront": "us", "waitMs": 5000])
        #expect(answer.error == nil, "\(answer)")
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath))
        #expect(try daemon.stop() == 0)
        #expect(FileManager.default.fileExists(atPath: activated))
    }

    @Test(
        "systemd hears READY=1, WATCHDOG=1, STATUS= updates, RELOADING=1 with MONOTONIC_USEC on SIGHUP, and STOPPING=1")
    func notifiesSystemd() throws {
        let bed = try TestBed()
        let listener = try NotifyListener()
        let daemon = try bed.start(environment: ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "200000"])
        let ready = try listener.receive(until: { $0.contains("READY=1") })
        #expect(ready.contains { $0.hasPrefix("STATUS=") })
        _ = try listener.receive(until: { $0.contains("WATCHDOG=1") })
        // The first STATUS= line after warming has finished (no storefront warming) must say both are fresh.
        let settled = try listener.receive(until: {
            $0.contains { $0.hasPrefix("STATUS=2 storefronts: ") && !$0.contains("warming") }
        })
        #expect(settled.filter { $0.hasPrefix("STATUS=") }.last == "STATUS=2 storefronts: 2 fresh", "\(settled)")
        daemon.send(SIGHUP)
        let reloading = try listener.receive(until: { $0.contains("RELOADING=1") })
        #expect(reloading.contains { $0.hasPrefix("MONOTONIC_USEC=") })
        _ = try listener.receive(until: { $0.contains("READY=1") })
        daemon.send(SIGTERM)
        _ = try listener.receive(until: { $0.contains("STOPPING=1") })
        #expect(try daemon.waitForExit() == 0)
    }
}

extension StartupTests {
    @Test("READY=1 is sent before the first upstream request, even with nothing cached")
    func readyBeforeAnyRequest() throws {
        let bed = try TestBed()
        let listener = try NotifyListener()
        try bed.start(environment: ["NOTIFY_SOCKET": listener.address])
        let ready = try listener.receiveStamped(until: { $0.contains("READY=1") })
        try bed.waitUntilWarm()
        let first = try #require(bed.requests().map(\.receivedAt).min())
        // Both clocks are this machine's wall clock: the kernel stamped READY=1 when the daemon sent it.
        #expect(ready.sentAt <= first, "READY=1 at \(ready.sentAt), first lookup request at \(first)")
    }
}
