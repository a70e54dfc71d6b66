import Foundation
import LookupReplay
import Testing

@Suite("Upstream citizenship", .serialized)
struct CitizenshipTests {
    @Test("a full warm of S storefronts and H hosts of one developer costs at most S + H requests, within rate_limit")
    func fullWarmIsCheapAndPaced() throws {
        let bed = try TestBed()
        bed.hosts = [TestBed.knotbook, TestBed.tideLog]
        bed.storefronts = ["us", "de", "jp"]
        bed.rateLimit = "2/s"
        let listener = try NotifyListener()
        try bed.start(environment: ["NOTIFY_SOCKET": listener.address])
        let ready = try listener.receiveStamped(until: { $0.contains("READY=1") })
        try bed.waitUntilWarm()
        let requests = bed.requests().sorted { $0.receivedAt < $1.receivedAt }
        #expect(requests.count <= 3 + 2, "\(requests.map(\.target))")
        #expect(requests.filter { $0.kind == .roster }.count == 3)
        // 2/s is one request every 0.5 s with no burst, and no request leaves before READY=1, so the k-th
        // request cannot arrive before READY + k × 0.5 s. A loaded machine only delays arrivals, which keeps
        // this a lower bound that never flakes; a limiter that let the warm burst would put them all at READY.
        // (A quarter of a spacing of slack: the first slot may be taken just before READY=1 is sent.)
        for (index, request) in requests.enumerated() {
            let slot = Double(index) * 0.5
            let arrived = request.receivedAt.timeIntervalSince(ready.sentAt)
            #expect(
                arrived >= slot - 0.25,
                "request \(index) arrived \(arrived)s after READY=1, before its slot at \(slot)s: \(requests)")
        }
        // Only what the lookup needs, and a User-Agent naming showcased.
        for request in requests {
            #expect(request.headers["user-agent"]?.hasPrefix("showcased/") == true)
            #expect(request.headers["cookie"] == nil)
            #expect(Set(request.query.keys).isSubset(of: ["bundleId", "id", "entity", "limit", "country"]))
        }
    }

    @Test("concurrent queries for a storefront outside the warm set share one fetch and warm it")
    func onDemandStorefrontFetchedOnce() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        bed.replay.inject(.delay(.milliseconds(300)), matching: "country=jp")
        let clients = try (0..<4).map { _ in try bed.client() }
        for client in clients { try client.send("io.showcase.Roster.Get", ["storefront": "JPN", "waitMs": 10_000]) }
        let answers = try clients.map { try $0.next() }
        for answer in answers {
            #expect(answer.string("state") == "fresh", "\(answer)")
            #expect(!answer.appIDs.isEmpty)
        }
        #expect(bed.requests(matching: "country=jp").filter { $0.kind == .roster }.count == 1)
        let storefronts = try bed.client().call("io.showcase.Roster.Storefronts")
        let jp = (storefronts["storefronts"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "jp" }
        #expect(jp?["warm"] as? Bool == true)
        #expect(jp?["alpha3"] as? String == "JPN")
    }

    @Test("an unknown storefront code is refused by name without any upstream request")
    func unknownStorefront() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let before = bed.requests().count
        let answer = try bed.get("zz")
        #expect(answer.error == "io.showcase.Roster.UnknownStorefront")
        #expect(answer.string("storefront") == "zz")
        let host = try bed.get("de", ["host": "com.example.Nope"])
        #expect(host.error == "io.showcase.Roster.UnknownHost")
        #expect(host.string("host") == "com.example.Nope")
        // Every method that takes a storefront parses it where the call is read, with the same answer, naming the
        // code as written (a country's name too), and an argument of another type stays InvalidParameter.
        let calls: [(String, [String: Any])] = [
            ("io.showcase.Roster.GetApp", ["id": 1]), ("io.showcase.Roster.Watch", [:]),
            ("io.showcase.Roster.Changes", [:]), ("io.showcase.Admin.Refresh", [:]),
        ]
        for (method, others) in calls {
            for code in ["zz", "Germany", "ad"] {
                let answer = try bed.client().call(method, others.merging(["storefront": code]) { $1 })
                #expect(answer.error == "io.showcase.Roster.UnknownStorefront", "\(method) \(code)")
                #expect(answer.string("storefront") == code, "\(method) \(code)")
            }
            let mistyped = try bed.client().call(method, others.merging(["storefront": 7]) { $1 })
            #expect(mistyped.error == "org.varlink.service.InvalidParameter", "\(method)")
            #expect(mistyped.string("parameter") == "storefront", "\(method)")
        }
        #expect(bed.requests().count == before)
    }

    @Test("a query waiting on a warming roster moves it to the front of the refresh queue")
    func waitingQueryJumpsTheQueue() throws {
        let bed = try TestBed()
        bed.storefronts = ["us", "de", "fr", "gb", "it", "jp"]
        bed.rateLimit = "3/s"
        try bed.start()
        let answer = try bed.get("jp", ["waitMs": 15_000])
        #expect(answer.string("state") == "fresh", "\(answer)")
        let order = bed.requests().filter { $0.kind == .roster }.compactMap { $0.query["country"] }
        let position = try #require(order.firstIndex(of: "jp"))
        #expect(position <= 2, "jp was fetched as roster #\(position + 1) of \(order)")
        #expect(!order.contains("it"), "the last scheduled storefront was fetched before the waiting one: \(order)")
    }
}
