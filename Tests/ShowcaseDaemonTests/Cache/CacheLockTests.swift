import Foundation
@preconcurrency import Glibc
import Testing

/// One process per cache directory (SPEC §17): a `--once` run and a daemon, or two runs, never share one; the
/// second is refused at once with exit 71 and the holder's pid.
@Suite("Cache directory lock", .serialized)
struct CacheLockTests {
    /// A bed whose every lookup takes 3 s, so a first run is still holding the cache while the second starts.
    func slowBed() throws -> TestBed {
        let bed = try TestBed()
        bed.timeout = "10s"
        bed.replay.inject(.delay(.seconds(3)))
        try bed.writeConfig()
        return bed
    }

    /// Waits until the lock file in `bed`'s cache names `pid` (the holder has taken the lock).
    func waitForLock(_ bed: TestBed, held pid: Int32) throws {
        let file = bed.cacheDirectory.appendingPathComponent(".showcased.lock")
        try waitFor(timeout: .seconds(20)) {
            (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                == "\(pid)"
        }
    }

    @Test("a second --once run on the same cache directory exits 71 at once, naming the first one's pid")
    func twoRuns() throws {
        let bed = try slowBed()
        let first = try OneShotRun.start(bed)
        try waitForLock(bed, held: first.pid)
        let second = try OneShotRun.run(bed)
        #expect(second.status == 71, "\(second)")
        #expect(second.stderr.contains("in use by process \(first.pid)"), "\(second.stderr)")
        #expect(second.stdout.isEmpty)
        #expect(try first.wait().status == 0)
    }

    @Test("--once while a daemon serves the cache directory exits 71, naming the daemon's pid")
    func onceWhileDaemonRuns() throws {
        let bed = try TestBed()
        let daemon = try bed.start()
        let run = try OneShotRun.run(bed)
        #expect(run.status == 71, "\(run)")
        #expect(run.stderr.contains("in use by process \(daemon.pid)"), "\(run.stderr)")
        #expect(daemon.process.isRunning)
    }

    @Test("a daemon refuses to start (71) while a --once run holds its cache directory, naming the run's pid")
    func daemonWhileOnceRuns() throws {
        let bed = try slowBed()
        let run = try OneShotRun.start(bed)
        try waitForLock(bed, held: run.pid)
        let daemon = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL, waitForSocket: false)
        #expect(try daemon.waitForExit() == 71, "\(daemon.log)")
        #expect(daemon.log.contains("in use by process \(run.pid)"), "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath))
        #expect(try run.wait().status == 0)
    }

    @Test("the lock dies with its holder: after a daemon is killed with SIGKILL, --once runs")
    func lockDiesWithHolder() throws {
        let bed = try TestBed()
        let daemon = try bed.start()
        daemon.send(SIGKILL)
        _ = try? daemon.waitForExit()
        #expect(try OneShotRun.run(bed).status == 0)
    }
}
