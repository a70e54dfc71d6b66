import Foundation
import Testing

/// Per-host and attribution settings of showcase.yaml, through the real binary.
@Suite("Host and attribution settings", .serialized)
struct HostSettingsTests {
    @Test("attribution.provider_token adds pt, ct and mt=8 to every store URL, keeping Apple's query")
    func providerTokenApplies() throws {
        let bed = try TestBed()
        bed.extra = "attribution:\n  provider_token: \"1234567\"\n"
        try bed.start()
        try bed.waitUntilWarm()
        let answer = try bed.get("de")
        #expect(!answer.apps.isEmpty, "\(answer)")
        for app in answer.apps {
            let url = try #require(app["storeUrl"] as? String)
            let items = URLComponents(string: url)?.queryItems ?? []
            let value = { (name: String) in items.first { $0.name == name }?.value }
            #expect(value("pt") == "1234567", "\(url)")
            #expect(value("ct") == "showcase-knotbook", "the default campaign names the host: \(url)")
            #expect(value("mt") == "8", "\(url)")
            #expect(value("uo") == "4", "Apple's own query item is kept: \(url)")
        }
    }

    @Test("without attribution the store URLs are served exactly as the lookup gave them")
    func noProviderTokenLeavesURLs() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let rows = try bed.fixtureRoster("de")["results"] as? [[String: Any]] ?? []
        let upstream = Dictionary(
            rows.compactMap { row in
                ((row["trackId"] as? NSNumber)?.intValue).flatMap { id in
                    (row["trackViewUrl"] as? String).map { (id, $0) }
                }
            }, uniquingKeysWith: { first, _ in first })
        let answer = try bed.get("de")
        #expect(!answer.apps.isEmpty)
        for app in answer.apps {
            let id = try #require((app["id"] as? NSNumber)?.intValue)
            #expect(app["storeUrl"] as? String == upstream[id], "app \(id)")
        }
    }

    @Test("hosts[].app_id is accepted and pins nothing away: identity is still resolved and the host is not listed")
    func appIDIsAccepted() throws {
        let bed = try TestBed()
        bed.appIDs = [TestBed.knotbook: 1_641_000_102]
        try bed.start()
        try bed.waitUntilWarm()
        // "skips nothing": the identity request is still made, once.
        let identity = bed.requests().filter { $0.kind == .identity }
        #expect(identity.count == 1, "\(bed.requests().map(\.target))")
        let answer = try bed.get("de")
        #expect(answer.error == nil, "\(answer)")
        #expect(!answer.appIDs.isEmpty)
        #expect(!answer.appIDs.contains(1_641_000_102), "the host never lists itself: \(answer.appIDs)")
        #expect(answer.string("host") == TestBed.knotbook)
    }
}
