import Foundation
import LookupReplay
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A hostile or broken upstream and a hostile environment, through the real binary: each with its bound
/// asserted (peak RSS and CPU time from /proc, time to answer, cache files unchanged).
@Suite("Hostile upstreams and environments", .serialized)
struct HostileUpstreamTests {
    /// utime + stime of `pid` in seconds, from /proc/PID/stat.
    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let text = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces) start after the last ')'.
        let fields = text[text.index(after: text.lastIndex(of: ")")!)...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (Double(fields[11])! + Double(fields[12])!) / ticks
    }

    /// A field of /proc/PID/status in kB (`VmHWM` is the peak resident set).
    static func statusKilobytes(_ pid: Int32, _ field: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }!
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])!
    }

    func rosterFile(_ bed: TestBed, _ storefront: String) throws -> (URL, Data) {
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory.path).first {
                $0.hasPrefix("roster-\(TestBed.artistId)-\(storefront)-")
            })
        let url = bed.cacheDirectory.appendingPathComponent(name)
        return (url, try Data(contentsOf: url))
    }

    func failure(_ refresh: Reply, _ storefront: String) -> String? {
        (refresh["failed"] as? [[String: Any]] ?? []).first { $0["storefront"] as? String == storefront }?["error"]
            as? String
    }

    @Test("a gzip bomb is cut at max_response_bytes as it inflates: the daemon's peak RSS stays under 200 MB")
    func gzipBomb() throws {
        let bed = try TestBed()
        let bomb = bed.directory.appendingPathComponent("bomb.json.gz")
        // 1 GiB of zeros inflates from about 1 MiB of gzip.
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "head -c 1073741824 /dev/zero | gzip -1 > '\(bomb.path)'"]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)
        let daemon = try bed.start()
        try bed.waitUntilWarm()
        let (url, before) = try rosterFile(bed, "de")
        bed.replay.inject(.gzipBody(bomb.path), count: 1)
        let refresh = try bed.refresh("de")
        let error = try #require(failure(refresh, "de"), "\(refresh)")
        #expect(error.contains("max_response_bytes"), "\(error)")
        let peak = try Self.statusKilobytes(daemon.pid, "VmHWM")
        #expect(peak < 200 * 1024, "peak RSS \(peak) kB after a gzip bomb")
        #expect(try Data(contentsOf: url) == before, "the cached roster changed")
    }

    @Test("a gzip body within the cap is decoded and served; the request asks for gzip or identity only")
    func gzipWithinCap() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let compressed = bed.directory.appendingPathComponent("de.json.gz")
        let source = TestBed.fixtures.appendingPathComponent("roster-\(TestBed.artistId)-de.json").path
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "gzip -c '\(source)' > '\(compressed.path)'"]
        try gzip.run()
        gzip.waitUntilExit()
        bed.replay.inject(.gzipBody(compressed.path), count: 1)
        let refresh = try bed.refresh("de")
        #expect(failure(refresh, "de") == nil, "\(refresh)")
        #expect(try bed.get("de").appIDs.count > 0)
        #expect(bed.requests().last?.headers["accept-encoding"] == "gzip")
    }

    @Test("while an upstream request hangs the daemon waits without burning CPU")
    func idleWaitIsFree() throws {
        let bed = try TestBed()
        // The upstream answers after 10 minutes, long after the test has ended (it stops the daemon): the window
        // below lies inside the wait however slow the machine, and the test checks that it did.
        bed.timeout = "900s"
        let daemon = try bed.start()
        try bed.waitUntilWarm()
        bed.replay.clearRequests()
        bed.replay.inject(.delay(.seconds(600)), matching: "country=de", count: 1)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? bed.client(receiveTimeout: 900).call("io.showcase.Admin.Refresh", ["storefront": "de"])
            done.signal()
        }
        // The window opens once the request has reached the upstream, not after a fixed sleep: the call and the
        // request before it are work, not waiting, and on a loaded machine they can take longer than any sleep.
        let deadline = ContinuousClock.now + .seconds(60)
        while bed.requests(matching: "country=de").isEmpty, ContinuousClock.now < deadline { usleep(20_000) }
        try #require(!bed.requests(matching: "country=de").isEmpty, "the refresh's request never reached the upstream")
        let before = try Self.cpuSeconds(daemon.pid)
        Thread.sleep(forTimeInterval: 3)
        let spent = try Self.cpuSeconds(daemon.pid) - before
        #expect(done.wait(timeout: .now()) == .timedOut, "the refresh ended inside the window: it measured no wait")
        #expect(spent < 0.5, "the daemon used \(spent) s of CPU in 3 s of waiting on a silent upstream")
        kill(daemon.pid, SIGKILL)  // ends the call (its connection closes), and the wait
        #expect(done.wait(timeout: .now() + 30) == .success)
    }

    @Test("a redirect is not followed: an upstream failure that keeps the cached roster")
    func redirectNotFollowed() throws {
        let bed = try TestBed()
        bed.storefronts = ["us", "jp"]
        try bed.start()
        try bed.waitUntilWarm()
        let (url, before) = try rosterFile(bed, "jp")
        let appsBefore = try bed.get("jp").appIDs
        bed.replay.clearRequests()
        let elsewhere = "\(bed.endpoint)?id=\(TestBed.artistId)&entity=software&limit=200&country=us"
        bed.replay.inject(.redirect(elsewhere), count: 1)
        let refresh = try bed.refresh("jp")
        let error = try #require(failure(refresh, "jp"), "\(refresh)")
        #expect(error.contains("301"), "\(error)")
        #expect(bed.requests(matching: "country=us").isEmpty, "the redirect was followed")
        let after = try bed.get("jp")
        #expect(after.error == nil, "\(after)")
        #expect(after.appIDs == appsBefore)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a roster answered for another storefront is MalformedResponse and the cache is untouched")
    func wrongStorefrontBody() throws {
        let bed = try TestBed()
        bed.storefronts = ["us", "jp"]
        try bed.start()
        try bed.waitUntilWarm()
        let (url, before) = try rosterFile(bed, "jp")
        try bed.overrideRoster("jp", try bed.fixtureRoster("us"))
        let refresh = try bed.refresh("jp")
        let error = try #require(failure(refresh, "jp"), "\(refresh)")
        #expect(error.contains("asked for jp, answered for us"), "\(error)")
        let get = try bed.get("jp")
        #expect(get.error == "io.showcase.Roster.MalformedResponse", "\(get)")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a body whose rows all drop (trackName renamed) is MalformedResponse, never a fresh empty roster")
    func renamedFieldsNeverEmpty() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let (url, before) = try rosterFile(bed, "de")
        var body = try bed.fixtureRoster("de")
        body["results"] = (body["results"] as! [[String: Any]]).map { row in
            var row = row
            if let name = row.removeValue(forKey: "trackName") { row["trackTitle"] = name }
            return row
        }
        try bed.overrideRoster("de", body)
        let refresh = try bed.refresh("de")
        let error = try #require(failure(refresh, "de"), "\(refresh)")
        #expect(error.contains("without trackName"), "\(error)")
        let get = try bed.get("de")
        #expect(get.error == "io.showcase.Roster.MalformedResponse", "\(get)")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a body whose every kind is renamed is MalformedResponse naming the unknown kinds; the cache is untouched")
    func renamedKindNeverEmpty() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        try bed.start()
        try bed.waitUntilWarm()
        let (url, before) = try rosterFile(bed, "us")
        let renamed = TestBed.fixtureData("renamed-kind-roster-1641000001-us.json")
        bed.replay.setOverride("roster-\(TestBed.artistId)-us.json", contents: renamed)
        let refresh = try bed.refresh("us")
        let error = try #require(failure(refresh, "us"), "\(refresh)")
        #expect(error.contains("12 of unknown kind 'ios-software'"), "\(error)")
        #expect(error.contains("5 of unknown kind 'macos-software'"), "\(error)")
        let get = try bed.get("us")
        #expect(get.error == "io.showcase.Roster.MalformedResponse", "\(get)")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a FIFO in the cache directory does not stop the daemon from starting and answering")
    func fifoInCacheDirectory() throws {
        let bed = try TestBed()
        try FileManager.default.createDirectory(at: bed.cacheDirectory, withIntermediateDirectories: true)
        let name = "roster-\(TestBed.artistId)-us-0000000000000000.json"
        #expect(mkfifo(bed.cacheDirectory.appendingPathComponent(name).path, 0o600) == 0)
        try bed.start()  // waits (bounded) for the socket
        try bed.waitUntilWarm()
        #expect(try bed.get("us").appIDs.count > 0)
    }

    @Test("an overlay that is a FIFO fails the reload at once and the daemon keeps answering")
    func fifoOverlayReload() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        try FileManager.default.removeItem(at: bed.overlayURL)
        #expect(mkfifo(bed.overlayURL.path, 0o600) == 0)
        let started = ContinuousClock.now
        let reload = try bed.client().call("io.showcase.Admin.Reload")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(reload.error == "io.showcase.Admin.ConfigInvalid", "\(reload)")
        #expect("\(reload)".contains("FIFO"))
        #expect(try bed.get("us").appIDs.count > 0)
    }

    @Test(
        "out-of-range WATCHDOG_USEC is logged and ignored, never a crash",
        arguments: ["18446744073709551615", "9223372036854775807", "-1", "0", "soon"])
    func absurdWatchdog(value: String) throws {
        let bed = try TestBed()
        let daemon = try bed.start(environment: ["WATCHDOG_USEC": value])
        #expect(daemon.process.isRunning, "\(daemon.log)")
        #expect(daemon.log.contains("ignoring WATCHDOG_USEC=\(value)"), "\(daemon.log)")
    }

    @Test("out-of-range LISTEN_FDS for this process is logged and the daemon binds its own socket")
    func absurdListenFds() throws {
        let bed = try TestBed()
        try bed.writeConfig()
        let daemon = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL,
            launcher: [
                "/bin/sh", "-c", #"LISTEN_PID=$$ LISTEN_FDS=99999999999999999999999 exec "$0" "$@""#,
            ])
        bed.daemon = daemon
        #expect(daemon.process.isRunning, "\(daemon.log)")
        #expect(daemon.log.contains("ignoring LISTEN_FDS="), "\(daemon.log)")
        // Its own socket answers: wait for the first roster so the answer does not depend on how far the first
        // fetch got under load (warming, or fresh).
        try bed.waitUntilWarm()
        let reply = try bed.get("us")
        #expect(reply.error == nil, "\(reply)")
    }

    @Test("a socket path of 108 bytes or more is reported as too long by showcased (exit 71) and showcasectl")
    func socketPathTooLong() throws {
        let bed = try TestBed()
        let long = bed.directory.path + "/" + String(repeating: "s", count: 120) + ".sock"
        let length = long.utf8.count
        try bed.writeConfig()
        let daemon = try DaemonProcess(
            config: bed.configURL, socketPath: long, logFile: bed.logURL, waitForSocket: false)
        bed.daemon = daemon
        #expect(try daemon.waitForExit() == 71)
        #expect(daemon.log.contains("socket path too long: \(length) bytes, the limit is 107"), "\(daemon.log)")

        let ctl = Process()
        ctl.executableURL = DaemonProcess.showcasectl
        ctl.arguments = ["--socket", long, "status"]
        let err = Pipe()
        ctl.standardError = err
        ctl.standardOutput = FileHandle.nullDevice
        try ctl.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ctl.waitUntilExit()
        #expect(stderr.contains("socket path too long: \(length) bytes, the limit is 107"), "\(stderr)")
        #expect(!stderr.contains("not running"))
    }
}
