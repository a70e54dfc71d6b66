import Foundation
import LookupReplay
import Testing

/// Freshness as a client sees it: a roster older than refresh.interval is served as `stale`, with the same
/// apps and fetch time, while upstream cannot replace it.
@Suite("Freshness", .serialized)
struct FreshnessTests {
    @Test("a cached roster older than refresh.interval is served as stale, unchanged, while upstream fails")
    func oldRosterIsStale() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        bed.interval = "2s"
        bed.retry = "500ms"
        try bed.start()
        try bed.waitUntilWarm()
        let fresh = try bed.get("de")
        #expect(fresh.string("state") == "fresh", "\(fresh)")
        let fetchedAt = try #require(fresh.string("fetchedAt"))

        // Every later refresh fails with a transport error, so the roster can only age.
        bed.replay.inject(.status(500))
        try waitFor(timeout: .seconds(30)) { try bed.get("de").string("state") == "stale" }
        let stale = try bed.get("de")
        #expect(stale.error == nil, "\(stale)")
        #expect(stale.string("state") == "stale")
        #expect(stale.appIDs == fresh.appIDs)
        #expect(stale.string("fetchedAt") == fetchedAt, "the fetch time is the original one")
        let fetched = try #require(ISO8601DateFormatter().date(from: fetchedAt))
        #expect(Date().timeIntervalSince(fetched) >= 2, "served as stale before refresh.interval had passed")
        #expect(try bed.statusEntry("de")?["state"] as? String == "stale")

        // Once upstream answers again, a refresh replaces it with a newer fetch. (The interval goes back to 1h
        // first, so the new roster cannot age into stale before the test reads it on a slow machine.)
        bed.replay.clearFaults()
        bed.interval = "1h"
        #expect(try bed.reload().int("generation") == 2)
        let refresh = try bed.refresh("de")
        #expect(refresh["refreshed"] as? [String] == ["de"], "\(refresh)")
        let again = try bed.get("de")
        #expect(again.string("state") == "fresh", "\(again)")
        #expect(again.string("fetchedAt") != fetchedAt, "the refresh did not replace the stale roster")
    }
}
