import Foundation
import LookupReplay
import ShowcaseCore
import Testing

/// Upstream sends `javascript:`, `data:` and foreign-host URLs; through the real binary, no reply ever carries one.
@Suite("Hostile upstream URLs", .serialized)
struct HostileURLTests {
    /// The us fixture with the URLs of six iOS rows made hostile, and those rows' ids.
    static func hostileUSRoster(_ bed: TestBed) throws -> (body: [String: Any], hostile: [Int]) {
        var body = try bed.fixtureRoster("us")
        var results = body["results"] as! [[String: Any]]
        let poison: [(String, String)] = [
            ("trackViewUrl", "javascript:alert(document.domain)//"),
            ("trackViewUrl", "data:text/html,<script>alert(1)</script>"),
            ("trackViewUrl", "https://evil.example/us/app/x/id1"),
            ("artworkUrl512", "javascript:alert(document.domain)//"),
            ("artworkUrl512", "http://evil/icon.png"),
            ("artworkUrl512", "data:image/svg+xml,<svg onload=alert(1)>"),
        ]
        var hostile: [Int] = []
        var next = 0
        for index in results.indices where next < poison.count && results[index]["kind"] as? String == "software" {
            results[index][poison[next].0] = poison[next].1
            hostile.append((results[index]["trackId"] as! NSNumber).intValue)
            next += 1
        }
        body["results"] = results
        return (body, hostile)
    }

    static func allowedEverywhere(_ app: [String: Any]) -> Bool {
        let store = app["storeUrl"] as? String ?? ""
        let icon = app["iconUrl"] as? String ?? ""
        return store.hasPrefix("https://apps.apple.com/") && icon.hasPrefix("https://is1-ssl.mzstatic.com/")
    }

    @Test("Get never returns a hostile store or icon URL: those rows are dropped and counted in droppedRows")
    func hostileRowsDropped() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        let (body, hostile) = try Self.hostileUSRoster(bed)
        #expect(hostile.count == 6)
        try bed.overrideRoster("us", body)
        try bed.start()
        try bed.waitUntilWarm()
        for parameters: [String: Any] in [[:], ["platform": "macos"], ["device": "ipad"]] {
            let reply = try bed.get("us", parameters)
            #expect(reply.error == nil, "\(reply)")
            #expect(!reply.apps.isEmpty)
            #expect(reply.apps.allSatisfy(Self.allowedEverywhere), "\(reply)")
            #expect(Set(reply.appIDs).isDisjoint(with: hostile))
            for needle in ["javascript:", "data:", "evil"] { #expect(!reply.description.contains(needle)) }
        }
        for id in hostile {
            let reply = try bed.client().call("io.showcase.Roster.GetApp", ["id": id, "storefront": "us"])
            #expect(reply.error == "io.showcase.Roster.AppNotFound", "\(reply)")
        }
        #expect(try bed.statusEntry("us")?["droppedRows"] as? Int == 6)
        #expect(bed.daemon!.log.contains(URLRules.foreignStoreURL), "\(bed.daemon!.log)")
    }

    @Test("lookup.artwork_hosts decides which icons are served: none allowed is MalformedResponse, a reload fixes it")
    func configuredArtworkHosts() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.lookupLines = [#"artwork_hosts: ["https://*.example.com/"]"#]
        try bed.start()
        let refresh = try bed.refresh("us")
        let failed = (refresh["failed"] as? [[String: Any]] ?? []).first?["error"] as? String ?? ""
        #expect(failed.contains(URLRules.foreignIconURL), "\(refresh)")
        let refused = try bed.get("us")
        #expect(refused.error == "io.showcase.Roster.MalformedResponse", "\(refused)")
        #expect("\(refused)".contains("icon URL outside lookup.artwork_hosts"), "\(refused)")

        bed.lookupLines = [#"artwork_hosts: ["https://*.example.com/", "https://IS1-SSL.mzstatic.com/image/"]"#]
        #expect(try bed.reload().error == nil)
        try bed.waitUntilWarm()
        let served = try bed.get("us")
        #expect(served.error == nil, "\(served)")
        #expect(!served.apps.isEmpty)
        #expect(served.apps.allSatisfy(Self.allowedEverywhere))
    }

    @Test("a reload that narrows artwork_hosts refetches at once: icons they no longer allow stop being served")
    func reloadNarrowingRefetches() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        try bed.start()
        try bed.waitUntilWarm()
        #expect(try bed.get("us").error == nil)
        // refresh.interval is 1h: without the refetch the roster would stay fresh, and served, for an hour.
        bed.lookupLines = [#"artwork_hosts: ["https://*.example.com/"]"#]
        #expect(try bed.reload().error == nil)
        let deadline = ContinuousClock.now + .seconds(15)
        var reply = try bed.get("us")
        while reply.error == nil, ContinuousClock.now < deadline {
            usleep(50_000)
            reply = try bed.get("us")
        }
        #expect(reply.error == "io.showcase.Roster.MalformedResponse", "\(reply)")
        #expect(bed.daemon!.log.contains("lookup.artwork_hosts changed"), "\(bed.daemon!.log)")
    }

    @Test("a cached roster is decoded under the current artwork_hosts: an icon they refuse is never served")
    func cacheObeysCurrentConfiguration() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        // The host's identity and a roster in the cache, then the roster replaced by one cached under wider
        // prefixes (an earlier configuration), one of its icons elsewhere.
        try bed.start()
        try bed.waitUntilWarm()
        try bed.daemon!.stop()
        var body = try bed.fixtureRoster("us")
        var results = body["results"] as! [[String: Any]]
        let index = try #require(results.firstIndex { $0["kind"] as? String == "software" })
        let moved = (results[index]["trackId"] as! NSNumber).intValue
        results[index]["artworkUrl512"] = "https://icons.example.com/moved.png"
        body["results"] = results
        let wide = URLRules(artworkHosts: [.appleArtwork, try URLPrefix(parsing: "https://icons.example.com/")])
        let roster = try Roster(
            artistId: TestBed.artistId, storefront: .unitedStates,
            body: try JSONSerialization.data(withJSONObject: body),
            fetchedAt: Date(), urlRules: wide)
        #expect(roster.app(id: moved) != nil)
        try FileCache(directory: bed.cacheDirectory).store(roster)

        bed.replay.inject(.status(500))  // only the cache can answer
        try bed.start()
        let reply = try bed.get("us")
        #expect(reply.error == nil, "\(reply)")
        #expect(!reply.apps.isEmpty)
        #expect(!reply.appIDs.contains(moved))
        #expect(reply.apps.allSatisfy(Self.allowedEverywhere), "\(reply)")
        #expect(try bed.statusEntry("us")?["droppedRows"] as? Int == 1)
    }
}
