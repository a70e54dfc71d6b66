import Foundation
import Testing

@Suite("Unavailable: a transport failure with nothing cached", .serialized)
struct UnavailableTests {
    @Test("is Unavailable in Get and in Watch (which ends there), and 'unavailable' in Status, never warming")
    func unavailableEverywhere() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.replay.inject(.status(500))
        try bed.start()
        try waitFor(timeout: .seconds(30)) { !bed.requests().isEmpty }
        try waitFor(timeout: .seconds(30)) { try bed.get("us").error != nil }

        let get = try bed.get("us")
        #expect(get.error == "io.showcase.Roster.Unavailable", "\(get)")

        let watcher = try bed.client()
        let watched = try watcher.call("io.showcase.Roster.Watch", ["storefront": "us"], more: true)
        #expect(watched.error == "io.showcase.Roster.Unavailable", "\(watched)")
        #expect(!watched.continues)

        let status = try bed.status()
        let storefronts = try #require(status["storefronts"] as? [[String: Any]])
        #expect(storefronts.map { $0["state"] as? String } == ["unavailable"], "\(status)")
    }

    @Test("shows its lastError in Status from the moment Get answers Unavailable, while the refresh is still running")
    func lastErrorWhileTheRefreshRuns() throws {
        let bed = try TestBed()
        // Two hosts of two developers: one refresh of us asks for both rosters, one after the other. The default
        // host's fails at once; the other's is slow, so the refresh is still running while the first is served.
        bed.hosts = [TestBed.knotbook, "com.lamplight.Beacon"]
        bed.storefronts = ["us"]
        bed.timeout = "10s"
        bed.replay.inject(.status(500), matching: "id=1641000001&entity")
        bed.replay.inject(.delay(.seconds(6)), matching: "id=1642000001&entity")
        try bed.start()
        try waitFor(timeout: .seconds(30)) { try bed.get("us").error != nil }

        let get = try bed.get("us")
        #expect(get.error == "io.showcase.Roster.Unavailable", "\(get)")
        let entry = try #require(try bed.statusEntry("us"))
        #expect(entry["state"] as? String == "unavailable", "\(entry)")
        let lastError = try #require(entry["lastError"] as? String, "no lastError while Get says why: \(entry)")
        #expect(lastError.contains("500"), "\(lastError)")
        #expect(get.string("reason").map { $0.contains("500") } ?? false, "\(get)")
    }
}
