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

    /// What a planted lock name can be (SPEC §20): each is refused with exit 71, by name, never gone on without.
    enum Planted: String, CaseIterable, CustomStringConvertible {
        case directory, symlink, fifo, hardLink

        var description: String { rawValue }

        /// The phrase the refusal names it with.
        var phrase: String {
            switch self {
            case .directory: "a directory"
            case .symlink: "a symbolic link"
            case .fifo: "a FIFO"
            case .hardLink: "a hard link"
            }
        }
    }

    /// A configured bed with `kind` planted at its lock's name (the symlink and hard link onto `outside`, a file
    /// outside the cache holding `precious`).
    func planted(_ kind: Planted) throws -> (bed: TestBed, outside: URL) {
        let bed = try TestBed()
        try bed.writeConfig()
        let outside = bed.directory.appendingPathComponent("outside.txt")
        try Data("precious\n".utf8).write(to: outside)
        try FileManager.default.createDirectory(at: bed.cacheDirectory, withIntermediateDirectories: true)
        let lock = bed.cacheDirectory.appendingPathComponent(".showcased.lock").path
        switch kind {
        case .directory: try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
        case .symlink: #expect(symlink(outside.path, lock) == 0)
        case .fifo: #expect(mkfifo(lock, 0o644) == 0)
        case .hardLink: #expect(link(outside.path, lock) == 0)
        }
        return (bed, outside)
    }

    @Test(
        "a directory, symlink, FIFO or hard link at the lock's name stops --once with 71, naming it",
        arguments: Planted.allCases)
    func plantedLockRefusesOnce(_ kind: Planted) throws {
        let (bed, outside) = try planted(kind)
        let run = try OneShotRun.run(bed)
        #expect(run.status == 71, "\(run)")
        #expect(run.stderr.contains(".showcased.lock is \(kind.phrase)"), "\(run.stderr)")
        #expect(!run.stderr.contains("going on without it"))
        #expect(run.stdout.isEmpty)
        #expect(try String(contentsOf: outside, encoding: .utf8) == "precious\n")
        #expect(bed.replay.requests.isEmpty, "no refresh may run without the lock")
    }

    @Test(
        "a directory, symlink, FIFO or hard link at the lock's name stops the daemon with 71, naming it",
        arguments: Planted.allCases)
    func plantedLockRefusesDaemon(_ kind: Planted) throws {
        let (bed, outside) = try planted(kind)
        let daemon = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL, waitForSocket: false)
        #expect(try daemon.waitForExit() == 71, "\(daemon.log)")
        #expect(daemon.log.contains(".showcased.lock is \(kind.phrase)"), "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath))
        #expect(try String(contentsOf: outside, encoding: .utf8) == "precious\n")
    }
}
