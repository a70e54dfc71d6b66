import Foundation
import Testing

@Suite("Identity re-resolution", .serialized)
struct IdentityTests {
    /// Polls `Get` for `us` until `condition` holds for its app ids (a bound against hangs, not a timing check).
    func waitFor(_ bed: TestBed, _ condition: ([Int]) -> Bool) throws -> [Int] {
        let deadline = ContinuousClock.now + .seconds(30)
        var ids: [Int] = []
        while ContinuousClock.now < deadline {
            ids = try bed.get("us").appIDs
            if condition(ids) { return ids }
            usleep(100_000)
        }
        return ids
    }

    @Test("a transferred app serves its new developer's roster after re-resolution, with a warning in the log")
    func transfer() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.interval = "2s"
        try bed.start()
        try bed.waitUntilWarm()
        #expect(try bed.get("us").appIDs.contains(1_641_000_103))
        let initial = try #require((try bed.status()["hosts"] as? [[String: Any]])?.first)
        #expect(initial["artistId"] as? Int == 1_641_000_001)
        #expect(initial["warning"] == nil)

        // The Knotbook identity row, moved to the Lamplight developer (artistId 1642000001; Fixtures/README.md).
        bed.replay.setOverride(
            "identity-com.quietharbor.Knotbook-us.json",
            contents: TestBed.fixtureData("transferred-identity-com.quietharbor.Knotbook-us.json"))
        let ids = try waitFor(bed) { $0.contains(1_642_000_103) }
        #expect(ids.contains(1_642_000_103), "never served the new developer's roster: \(ids)")
        #expect(!ids.contains(1_641_000_103))
        #expect(bed.daemon?.log.contains("moved from developer 1641000001 to developer 1642000001") == true)
        let host = try #require((try bed.status()["hosts"] as? [[String: Any]])?.first)
        #expect(host["bundleId"] as? String == "com.quietharbor.Knotbook")
        #expect(host["artistId"] as? Int == 1_642_000_001)
        #expect((host["warning"] as? String)?.contains("transferred") == true, "\(host)")
    }

    @Test("an app the store no longer knows keeps serving the last roster, with a warning in the log")
    func vanished() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.interval = "2s"
        try bed.start()
        try bed.waitUntilWarm()
        let before = try bed.get("us").appIDs
        #expect(!before.isEmpty)

        let empty = try Data(contentsOf: TestBed.fixtures.appendingPathComponent("empty.json"))
        bed.replay.setOverride("identity-com.quietharbor.Knotbook-us.json", contents: empty)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, bed.daemon?.log.contains("could not re-resolve") != true {
            usleep(100_000)
        }
        #expect(bed.daemon?.log.contains("could not re-resolve com.quietharbor.Knotbook") == true)
        let answer = try bed.get("us")
        #expect(answer.error == nil, "\(answer)")
        #expect(answer.appIDs == before)
        let host = try #require((try bed.status()["hosts"] as? [[String: Any]])?.first)
        #expect(host["artistId"] as? Int == 1_641_000_001)
        #expect(host["appId"] as? Int == 1_641_000_102)
        #expect((host["warning"] as? String)?.contains("no longer knows") == true, "\(host)")
    }
}
