import Foundation
import Testing

extension CitizenshipTests {
    @Test("a storefront fetched on demand before a restart rejoins the warm set when queried, instead of ageing")
    func onDemandStorefrontFromCacheIsKeptWarm() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start()
        try bed.waitUntilWarm()
        let fetched = try bed.get("jp", ["waitMs": 10_000])
        #expect(fetched.string("state") == "fresh", "\(fetched)")
        try bed.daemon!.stop()

        try bed.start()
        let cached = try bed.get("jp")
        #expect(cached.string("state") == "fresh", "\(cached)")
        #expect(cached.appIDs == fetched.appIDs)
        let storefronts = try bed.client().call("io.showcase.Roster.Storefronts")
        let jp = (storefronts["storefronts"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "jp" }
        #expect(jp?["warm"] as? Bool == true, "\(String(describing: jp))")
        try waitFor {
            let status = try bed.status()["storefronts"] as? [[String: Any]] ?? []
            return status.contains { $0["code"] as? String == "jp" && $0["nextRefreshAt"] is String }
        }
    }
}
