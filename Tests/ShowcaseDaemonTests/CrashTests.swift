import Foundation
@preconcurrency import Glibc
import LookupReplay
import Testing

@Suite("Crash safety", .serialized)
struct CrashTests {
    @Test("kill -9 during cache writes, then a restart, serves the previous roster intact")
    func killDuringCacheWrite() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start()
        try bed.waitUntilWarm()
        let previous = try bed.get("de")
        #expect(!previous.appIDs.isEmpty)

        // Make every refresh return changed content, refresh in a tight loop, and kill -9 mid-stream.
        var changed = try bed.fixtureRoster("de")
        var results = changed["results"] as! [[String: Any]]
        let removedID = (results.removeLast()["trackId"] as? NSNumber)?.intValue
        changed["results"] = results
        changed["resultCount"] = results.count
        try bed.overrideRoster("de", changed)
        // Several changed refreshes complete (each one a cache write), then one more is started and the
        // daemon is killed as soon as its response has been sent.
        for _ in 0..<3 { try bed.refresh("de") }
        let before = bed.requests(matching: "entity=software").count
        try bed.client().send("io.showcase.Admin.Refresh", ["storefront": "de"])
        try waitFor { bed.requests(matching: "entity=software").count > before }
        bed.daemon!.send(SIGKILL)
        _ = try bed.daemon!.waitForExit()

        // Restart with upstream failing, so only the cache can answer.
        bed.replay.inject(.status(500))
        try bed.start()
        let answer = try bed.get("de")
        #expect(answer.error == nil, "\(answer)")
        #expect(["fresh", "stale"].contains(answer.string("state")))
        // Either the roster before the kill or the complete changed one: never a torn mix or nothing.
        let changedIDs = previous.appIDs.filter { $0 != removedID }
        #expect(answer.appIDs == previous.appIDs || answer.appIDs == changedIDs)
        #expect(!answer.appIDs.isEmpty)
        // Whatever half-written temporary file the kill left behind was swept at startup.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory.path)
            .filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("a torn or foreign file in the cache directory is a miss, never a crash")
    func tornCacheFileIsAMiss() throws {
        let bed = try TestBed()
        try FileManager.default.createDirectory(at: bed.cacheDirectory, withIntermediateDirectories: true)
        try Data("{\"format\":\"showcase-roster\",\"ver".utf8).write(
            to: bed.cacheDirectory.appendingPathComponent("roster-\(TestBed.artistId)-de-0000000000000000.json"))
        try Data([0xFF, 0x00, 0x13]).write(to: bed.cacheDirectory.appendingPathComponent("garbage.json"))
        bed.replay.inject(.status(500))
        try bed.start()
        let answer = try bed.get("de")
        #expect(answer.error == "io.showcase.Roster.Unavailable" || answer.string("state") == "warming", "\(answer)")
        bed.replay.clearFaults()
        try bed.refresh("de")
        #expect(try bed.get("de").string("state") == "fresh")
    }
}
