import Foundation
import LookupReplay
import Testing

extension CitizenshipTests {
    @Test("an on-demand fetch and Admin.Refresh running at once share one rate_limit budget")
    func onDemandAndRefreshShareTheBudget() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.rateLimit = "20/min"  // one request every 3 s
        try bed.start()
        try bed.waitUntilWarm(timeout: .seconds(60))
        bed.replay.clearRequests()

        // Both at once, on two connections: a query for a storefront outside the warm set, and a refresh.
        let query = try bed.client(receiveTimeout: 60)
        try query.send("io.showcase.Roster.Get", ["storefront": "jp", "waitMs": 30_000])
        let refresh = try bed.client(receiveTimeout: 60)
        try refresh.send("io.showcase.Admin.Refresh", ["storefront": "us"])
        let answer = try query.next()
        let refreshed = try refresh.next()
        #expect(answer.string("state") == "fresh", "\(answer)")
        #expect(refreshed["refreshed"] as? [String] == ["us"], "\(refreshed)")

        let requests = bed.requests().sorted { $0.receivedAt < $1.receivedAt }
        #expect(requests.contains { $0.target.contains("country=jp") }, "\(requests.map(\.target))")
        #expect(requests.contains { $0.target.contains("country=us") }, "\(requests.map(\.target))")
        // Spaced by the one limiter (3 s; a lower bound with 1 s for uneven delivery). Two budgets would let
        // both go at once.
        for (earlier, later) in zip(requests, requests.dropFirst()) {
            let gap = later.receivedAt.timeIntervalSince(earlier.receivedAt)
            #expect(gap >= 2, "\(earlier.target) and \(later.target) were \(gap)s apart under 20/min")
        }
    }
}
