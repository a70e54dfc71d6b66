import Foundation
import Testing

@Suite("Cache write failures", .serialized)
struct CacheWriteFailureTests {
    @Test("a roster the cache cannot hold is a failed refresh in Refresh and Status, and is served from memory")
    func cacheWriteFailureIsReported() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let served = try bed.get("de").appIDs
        #expect(served.count >= 2)

        // The roster file's name becomes a non-empty directory: the atomic rename into place cannot succeed
        // (as root, permissions would not stop it).
        let files = try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory.path)
        let name = try #require(files.first { $0.hasPrefix("roster-") && $0.contains("-de-") })
        let path = bed.cacheDirectory.appendingPathComponent(name)
        try FileManager.default.removeItem(at: path)
        try FileManager.default.createDirectory(
            at: path.appendingPathComponent("blocker"), withIntermediateDirectories: true)

        // Upstream drops the last served app.
        var body = try bed.fixtureRoster("de")
        let rows = (body["results"] as! [[String: Any]]).filter {
            ($0["trackId"] as? NSNumber)?.intValue != served.last
        }
        body["results"] = rows
        body["resultCount"] = rows.count
        try bed.overrideRoster("de", body)

        let refresh = try bed.refresh("de")
        let failed = refresh["failed"] as? [[String: Any]] ?? []
        #expect(failed.map { $0["storefront"] as? String } == ["de"], "\(refresh)")
        let error = failed.first?["error"] as? String ?? ""
        #expect(error.contains("cache could not be written"), "\(refresh)")
        #expect(!(refresh["refreshed"] as? [String] ?? []).contains("de"), "\(refresh)")
        let entry = try #require(try bed.statusEntry("de"))
        #expect((entry["lastError"] as? String)?.contains("cache could not be written") == true, "\(entry)")
        // The new roster is served all the same.
        #expect(try bed.get("de").appIDs == Array(served.dropLast()))
        #expect(bed.daemon!.process.isRunning)
    }
}
