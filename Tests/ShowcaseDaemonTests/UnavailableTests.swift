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
}
