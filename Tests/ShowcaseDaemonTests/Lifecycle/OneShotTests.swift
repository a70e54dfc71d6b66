import Foundation
@preconcurrency import Glibc
import Testing

/// `showcased --once` through the real binary against lookup-replay (SPEC §17): the budget of a cold run, a
/// second run that requests and rewrites nothing (also after a CI cache restore changed every mtime), the exit
/// statuses, the JSON report, and the usage errors.
@Suite("One-shot runs", .serialized)
struct OneShotTests {
    /// A bed for Knotbook and Tide Log (H = 2) in us and de (S = 2), exporting.
    func bed() throws -> TestBed {
        let bed = try TestBed()
        bed.hosts = [TestBed.knotbook, TestBed.tideLog]
        bed.enableExport()
        try bed.writeConfig()
        return bed
    }

    /// Inode and mtime (to the nanosecond) of every regular file under `directory`, but the cache lock file.
    static func identities(under directory: URL) throws -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let relative = enumerator?.nextObject() as? String {
            var info = stat()
            guard lstat(directory.path + "/" + relative, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                !relative.hasSuffix(".showcased.lock")
            else { continue }
            found[relative] = [Int(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        }
        return found
    }

    @Test("a cold run makes exactly S + H requests, writes the export, prints a line per roster and exits 0")
    func coldRun() throws {
        let bed = try bed()
        let run = try OneShotRun.run(bed)
        #expect(run.status == 0, "\(run)")
        #expect(bed.requests().count == 2 + 2, "\(bed.requests().map(\.target))")
        #expect(bed.requests(matching: "bundleId=").count == 2)
        #expect(run.lines.count == 4, "\(run.stdout)")
        for line in run.lines { #expect(line.contains(": fresh, "), "\(line)") }
        #expect(run.lines.contains { $0.hasPrefix("\(TestBed.tideLog) de: fresh") }, "\(run.stdout)")
        #expect(bed.exportedFiles().contains("\(TestBed.knotbook)/de/ios.json"), "\(bed.exportedFiles())")
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath), "a one-shot run opens no socket")
    }

    @Test("a second run makes no request and rewrites nothing, also after a cache restore changed every mtime")
    func secondRunRewritesNothing() throws {
        let bed = try bed()
        #expect(try OneShotRun.run(bed).status == 0)
        bed.replay.clearRequests()
        let cache = try Self.identities(under: bed.cacheDirectory)
        let export = try Self.identities(under: bed.exportDirectory)
        #expect(cache.keys.contains { $0.hasPrefix("roster-") }, "\(cache)")
        #expect(export.keys.contains("v1/index.json"), "\(export)")

        let second = try OneShotRun.run(bed)
        #expect(second.status == 0, "\(second)")
        #expect(bed.requests().isEmpty, "\(bed.requests().map(\.target))")
        #expect(try Self.identities(under: bed.cacheDirectory) == cache)
        #expect(try Self.identities(under: bed.exportDirectory) == export)

        // A CI cache restore: the same bytes, every mtime changed. Freshness is the fetch time in the payload.
        let files = cache.keys.map { bed.cacheDirectory.appendingPathComponent($0).path }
        let touch = Process()
        touch.executableURL = URL(fileURLWithPath: "/usr/bin/touch")
        touch.arguments = ["-d", "2001-01-01"] + files
        try touch.run()
        touch.waitUntilExit()
        let restored = try Self.identities(under: bed.cacheDirectory)
        #expect(restored != cache)
        let third = try OneShotRun.run(bed)
        #expect(third.status == 0, "\(third)")
        #expect(bed.requests().isEmpty, "\(bed.requests().map(\.target))")
        #expect(try Self.identities(under: bed.cacheDirectory) == restored)
        #expect(try Self.identities(under: bed.exportDirectory) == export)
    }

    @Test("a host added for a developer already cached costs its identity and one roster, not every storefront")
    func newHostOfCachedDeveloper() throws {
        let bed = try bed()
        bed.hosts = [TestBed.knotbook]
        try bed.writeConfig()
        #expect(try OneShotRun.run(bed).status == 0)
        bed.replay.clearRequests()
        bed.hosts = [TestBed.knotbook, TestBed.tideLog]
        try bed.writeConfig()
        let run = try OneShotRun.run(bed)
        #expect(run.status == 0, "\(run)")
        #expect(bed.requests(matching: "bundleId=").map(\.target).count == 1, "\(bed.requests().map(\.target))")
        #expect(bed.requests(matching: "entity=software").count == 1, "\(bed.requests().map(\.target))")
    }

    @Test("a 500 or 403 upstream with nothing cached exits 75, each roster named unavailable")
    func transportFailureIs75() throws {
        for status in [500, 403] {
            let bed = try bed()
            bed.replay.inject(.status(status))
            let run = try OneShotRun.run(bed)
            #expect(run.status == 75, "HTTP \(status): \(run)")
            #expect(run.lines.count == 4, "\(run.stdout)")
            for line in run.lines { #expect(line.contains(": unavailable") || line.contains(": warming"), "\(line)") }
        }
    }

    @Test("a malformed roster body exits 1, and 1 wins over a transport failure of another storefront")
    func diagnosticIs1() throws {
        let bed = try bed()
        bed.replay.inject(.body("malformed.html"), matching: "limit=200&country=de")
        let run = try OneShotRun.run(bed)
        #expect(run.status == 1, "\(run)")
        #expect(run.lines.contains { $0.hasPrefix("\(TestBed.knotbook) de: failed") }, "\(run.stdout)")
        #expect(run.lines.contains { $0.hasPrefix("\(TestBed.knotbook) us: fresh") }, "\(run.stdout)")

        let both = try self.bed()
        both.replay.inject(.body("malformed.html"), matching: "limit=200&country=de")
        both.replay.inject(.status(500), matching: "limit=200&country=us")
        let mixed = try OneShotRun.run(both)
        #expect(mixed.status == 1, "\(mixed)")
        #expect(mixed.lines.contains { $0.hasPrefix("\(TestBed.knotbook) us: unavailable") }, "\(mixed.stdout)")
    }

    @Test("--max-wait 1s against a Retry-After of an hour stops waiting and exits 75")
    func maxWaitStopsWaiting() throws {
        let bed = try bed()
        bed.replay.inject(.status(429, retryAfter: "3600"))
        // Without --max-wait the run would wait out the pause (an hour, refresh.interval): the bound catches that.
        let run = try OneShotRun.run(bed, ["--max-wait", "1s"], timeout: .seconds(30))
        #expect(run.status == 75, "\(run)")
        #expect(bed.requests().count == 1, "one throttled request, then no more: \(bed.requests().map(\.target))")
        #expect(run.stderr.contains("--max-wait"), "\(run.stderr)")
    }

    @Test("SIGINT stops a run waiting on a Retry-After: the last good files stay and it exits 75")
    func interruptStopsWaiting() throws {
        let bed = try bed()
        bed.replay.inject(.status(429, retryAfter: "300"))
        let started = try OneShotRun.start(bed)
        try waitFor(timeout: .seconds(20)) { !bed.requests().isEmpty }
        kill(started.pid, SIGINT)
        let run = try started.wait(timeout: .seconds(30))
        #expect(run.status == 75, "\(run)")
        #expect(run.stderr.contains("stopped waiting on signal \(SIGINT)"), "\(run.stderr)")
        #expect(bed.requests().count == 1, "\(bed.requests().map(\.target))")
    }

    @Test("a Retry-After that ends within --max-wait is waited for and the roster fetched")
    func shortRetryAfterIsHonoured() throws {
        let bed = try bed()
        bed.replay.inject(.status(429, retryAfter: "1"), matching: "limit=200&country=de", count: 1)
        let run = try OneShotRun.run(bed)
        #expect(run.status == 0, "\(run)")
        #expect(bed.requests(matching: "limit=200&country=de").count == 2)
    }

    @Test("a roster line names the rows upstream sent, as the log's refreshed line counts them, and the apps on iOS")
    func rowsAgreeWithLog() throws {
        let bed = try bed()
        let run = try OneShotRun.run(bed)
        #expect(run.status == 0, "\(run)")
        // The fixture's software rows for the developer in us, counted from the body the replay serves.
        let body = try JSONSerialization.jsonObject(with: TestBed.fixtureData("roster-\(TestBed.artistId)-us.json"))
        let results = (body as? [String: Any])?["results"] as? [[String: Any]] ?? []
        let rows = results.filter { $0["wrapperType"] as? String == "software" }.count
        #expect(rows > 0)
        #expect(run.stderr.contains("refreshed us: \(rows) rows from developer \(TestBed.artistId)"), "\(run.stderr)")
        let line = try #require(run.lines.first { $0.hasPrefix("\(TestBed.knotbook) us: ") }, "\(run.stdout)")
        #expect(line.contains(": fresh, \(rows) rows, "), "\(line)")
        let apps = try #require(Int(line.split(separator: ",")[2].split(separator: " ")[0]), "\(line)")
        #expect(apps > 0 && apps < rows && line.contains(", \(apps) apps on iOS, fetched "), "\(line)")
        // --json: the same numbers, the fields named as the line names them.
        let json = try OneShotRun.run(bed, ["--json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let roster = try #require(
            (document["rosters"] as? [[String: Any]])?.first {
                $0["host"] as? String == TestBed.knotbook && $0["storefront"] as? String == "us"
            })
        #expect(roster["rows"] as? Int == rows && roster["apps"] as? Int == apps, "\(roster)")
        #expect(roster["platform"] as? String == "ios", "\(roster)")
    }

    @Test("--json prints one document naming each roster's state, and the same exit status")
    func jsonReport() throws {
        let bed = try bed()
        bed.replay.inject(.status(500), matching: "limit=200&country=de")
        let run = try OneShotRun.run(bed, ["--json"])
        #expect(run.status == 75, "\(run)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let rosters = try #require(document["rosters"] as? [[String: Any]])
        #expect(rosters.count == 4)
        let states = Dictionary(
            rosters.map { ("\($0["host"] as? String ?? "") \($0["storefront"] as? String ?? "")", $0["state"]) }
        ) { first, _ in first }
        #expect(states["\(TestBed.knotbook) us"] as? String == "fresh", "\(rosters)")
        #expect(states["\(TestBed.tideLog) de"] as? String == "unavailable", "\(rosters)")
        #expect(document["requests"] as? Int == 4, "\(document)")
        #expect(document["exitStatus"] as? Int == 75)
    }

    @Test("--once with --socket, or --json without --once, is a usage error (64) with a sentence")
    func usageErrors() throws {
        let bed = try bed()
        let socket = try OneShotRun.run(bed, ["--socket", bed.socketPath])
        #expect(socket.status == 64, "\(socket)")
        #expect(socket.stderr.contains("--once opens no socket"), "\(socket.stderr)")
        let process = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL, arguments: ["--json"],
            waitForSocket: false)
        #expect(try process.waitForExit() == 64)
        #expect(process.log.contains("--json only applies to a one-shot run"), "\(process.log)")
    }
}
