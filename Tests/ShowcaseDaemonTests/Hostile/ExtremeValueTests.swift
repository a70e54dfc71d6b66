import Foundation
@preconcurrency import Glibc
import Testing

/// Issue #37, point 2 (SPEC §20): nothing read from disk or upstream can trap. Each extreme goes through the
/// binary; the run ends with an exit status of its own (never a signal) and the daemon keeps answering.
/// (`WATCHDOG_USEC` and `LISTEN_FDS` extremes are HostileUpstreamTests' `absurdWatchdog` and `absurdListenFds`.)
@Suite("Extreme values from disk and upstream", .serialized)
struct ExtremeValueTests {
    @Test(
        "a Retry-After of 2^63, Int.max, twenty digits, a negative number or the year 9999 is no trap",
        arguments: [
            "9223372036854775808", "9223372036854775807", "99999999999999999999999", "-9223372036854775808",
            "Fri, 31 Dec 9999 23:59:59 GMT", "Sat, 01 Jan 0000 00:00:00 GMT",
        ])
    func retryAfter(value: String) throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        try bed.writeConfig()
        bed.replay.inject(.status(429, retryAfter: value))
        let run = try OneShotRun.run(bed, ["--max-wait", "1s"])
        #expect(run.status == 75, "\(run)")
        #expect(run.lines.count == 1, "\(run)")

        let daemon = try bed.start()
        #expect(try bed.refresh("us").error == nil || daemon.process.isRunning)
        #expect(try bed.status().error == nil)
        #expect(daemon.process.isRunning, "\(daemon.log)")
    }

    @Test("trackIds, artistIds, genre ids and counts at Int.max, Int.min or beyond 64 bits are no trap")
    func hugeNumbers() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.extra = "export:\n  directory: \(bed.exportDirectory.path)\n  gzip: false\n  html: true\n  feed: true\n"
        var body = try bed.fixtureRoster("us")
        var results = body["results"] as! [[String: Any]]
        let extremes: [Any] = [
            Int.max, Int.min, 1e30, -1e30, "99999999999999999999", "-9223372036854775809", Int.max - 1,
        ]
        var next = 0
        for index in results.indices where results[index]["kind"] as? String == "software" && next < extremes.count {
            let value = extremes[next]
            results[index]["trackId"] = value
            results[index]["primaryGenreId"] = value
            results[index]["userRatingCount"] = value
            results[index]["price"] = next.isMultiple(of: 2) ? 1e308 : -1e308
            results[index]["averageUserRating"] = 1e308
            next += 1
        }
        body["results"] = results
        try bed.overrideRoster("us", body)
        try bed.writeConfig()
        let run = try OneShotRun.run(bed)
        #expect(run.status == 0 || run.status == 1, "\(run)")
        let daemon = try bed.start()
        try bed.waitUntilWarm()
        let reply = try bed.get("us")
        #expect(reply.error == nil, "\(reply)")
        #expect(reply.appIDs.contains(Int.max) && reply.appIDs.contains(Int.max - 1), "\(reply.appIDs)")
        #expect(try bed.export().error == nil)
        #expect(daemon.process.isRunning, "\(daemon.log)")
    }

    @Test("a lookup.rate_limit of Int.max per second or hour is no trap for --once or the daemon")
    func hugeRateLimit() throws {
        for rate in ["9223372036854775807/s", "9223372036854775807/h"] {
            let bed = try TestBed()
            bed.storefronts = ["us"]
            bed.rateLimit = rate
            try bed.writeConfig()
            let run = try OneShotRun.run(bed)
            #expect(run.status == 0, "\(rate): \(run)")
            let daemon = try bed.start()
            try bed.waitUntilWarm()
            #expect(try bed.refresh("us").error == nil)
            #expect(daemon.process.isRunning, "\(rate): \(daemon.log)")
        }
    }

    /// Rewrites the header line of every roster file in `bed`'s cache with `change`.
    func editCacheHeaders(_ bed: TestBed, _ change: (inout [String: Any]) -> Void) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory.path)
        var edited = 0
        for name in names where name.hasPrefix("roster-") {
            let url = bed.cacheDirectory.appendingPathComponent(name)
            let data = try Data(contentsOf: url)
            let newline = try #require(data.firstIndex(of: UInt8(ascii: "\n")))
            var header = try JSONSerialization.jsonObject(with: data[..<newline]) as! [String: Any]
            change(&header)
            try (JSONSerialization.data(withJSONObject: header) + data[newline...]).write(to: url)
            edited += 1
        }
        #expect(edited > 0, "\(names)")
    }

    @Test(
        "a cache file whose fetch time or counts are at the ends of 64 bits is no trap",
        arguments: [
            ("fetchedAtMilliseconds", Int64.max), ("fetchedAtMilliseconds", Int64.min),
            ("fetchedAtMilliseconds", -62_135_596_800_001), ("resultCount", Int64.max), ("resultCount", Int64.min),
            ("appsBytes", Int64.max), ("bodyBytes", Int64.min),
        ])
    func extremeCacheHeader(key: String, value: Int64) throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.extra = "export:\n  directory: \(bed.exportDirectory.path)\n  gzip: false\n  html: true\n  feed: true\n"
        try bed.writeConfig()
        #expect(try OneShotRun.run(bed).status == 0)
        try editCacheHeaders(bed) { $0[key] = NSNumber(value: value) }
        let again = try OneShotRun.run(bed)
        #expect(again.status == 0, "\(again)")
        try editCacheHeaders(bed) { $0[key] = NSNumber(value: value) }
        let daemon = try bed.start()
        defer { if !daemon.process.isRunning { Issue.record("the daemon stopped: \(daemon.log)") } }
        #expect(try bed.status().error == nil)
        try bed.waitUntilWarm()
        #expect(try bed.get("us").error == nil)
        #expect(try bed.export().error == nil)
        #expect(daemon.process.isRunning, "\(daemon.log)")
    }
}
