import Foundation
@preconcurrency import Glibc
import LookupReplay
import Testing

@Suite("Crash safety", .serialized)
struct CrashTests {
    @Test("kill -9 between a cache write and its rename, then a restart, serves the last complete roster")
    func killDuringCacheWrite() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        // Stops the daemon exactly where a crash hurts most: the new roster is written to a temporary file,
        // the rename over the old one has not happened (Support/RenamePause.swift). The leading "/" keeps a
        // diagnostic file ("diagnostic-roster-…") from matching.
        let pause = try RenamePause(in: bed.directory)
        try bed.start(environment: pause.environment(match: "/roster-\(TestBed.artistId)-de-"))
        try bed.waitUntilWarm()
        let original = try bed.get("de")
        #expect(original.appIDs.count >= 3, "\(original)")

        // A first change completes: the last served app removed upstream, written and renamed into place.
        let served = original.appIDs
        try bed.overrideRoster("de", without: [served[served.count - 1]])
        try bed.refresh("de")
        let committed = try bed.get("de").appIDs
        #expect(committed == Array(served.dropLast()), "the first change was not served")

        // A second change is written, then the daemon is killed before it renames the file into place.
        try bed.overrideRoster("de", without: [served[served.count - 1], served[served.count - 2]])
        try pause.arm()
        try bed.client().send("io.showcase.Admin.Refresh", ["storefront": "de"])
        let temporary = try pause.waitUntilPaused()
        let written = try Data(contentsOf: URL(fileURLWithPath: temporary))
        #expect(!written.isEmpty, "the temporary file \(temporary) should hold the complete new roster")
        bed.daemon!.send(SIGKILL)
        #expect(try bed.daemon!.waitForExit() == 128 + SIGKILL)

        // Restart without the hook and with upstream failing, so only the cache can answer.
        bed.replay.inject(.status(500))
        try bed.start()
        let answer = try bed.get("de")
        #expect(answer.error == nil, "\(answer)")
        #expect(["fresh", "stale"].contains(answer.string("state")))
        // Exactly the last roster whose rename completed: neither the unrenamed one, nor a torn mix, nor nothing.
        #expect(answer.appIDs == committed, "\(answer)")
        // The half-finished temporary file the kill left behind was swept at startup.
        #expect(!FileManager.default.fileExists(atPath: temporary), "\(temporary) was not swept")
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
