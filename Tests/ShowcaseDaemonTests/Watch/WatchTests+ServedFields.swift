import Foundation
import Testing

extension WatchTests {
    @Test("a streamed Watch reply's apps are Get's, member for member, and GetApp answers each app as Get lists it")
    func watchAndGetAppServeGetsApps() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start()
        try bed.waitUntilWarm()
        let get = try bed.get("de")
        #expect(get.apps.count >= 5)
        #expect(get.apps.contains { $0["contentAdvisoryRating"] != nil && $0["genreId"] != nil })
        let watched = try bed.client().call("io.showcase.Roster.Watch", ["storefront": "de"], more: true)
        #expect(watched.continues)
        #expect(watched.apps as NSArray == get.apps as NSArray, "\(watched)")
        let client = try bed.client()
        for app in get.apps {
            let id = try #require(app["id"] as? Int)
            let reply = try client.call("io.showcase.Roster.GetApp", ["id": id, "storefront": "de"])
            #expect(reply.parameters as NSDictionary == ["app": app] as NSDictionary, "\(reply)")
        }
    }

    @Test("rating and version churn upstream sends no Watch reply; the next real change comes as the next revision")
    func ratingChurnIsSilent() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start()
        try bed.waitUntilWarm()
        let watcher = try bed.client()
        let first = try watcher.call("io.showcase.Roster.Watch", ["storefront": "de"], more: true)
        let revision = try #require(first.int("revision"))
        let ids = first.appIDs
        #expect(ids.count >= 3)

        var roster = try bed.fixtureRoster("de")
        var results = (roster["results"] as! [[String: Any]]).map { row -> [String: Any] in
            guard row["wrapperType"] as? String == "software" else { return row }
            var row = row
            row["averageUserRating"] = 1.5
            row["userRatingCount"] = 3
            row["version"] = "99.0"
            return row
        }
        roster["results"] = results
        try bed.overrideRoster("de", roster)
        try bed.refresh("de")  // only unserved fields changed: nothing may be sent for it

        results.removeAll { ($0["trackId"] as? NSNumber)?.intValue == ids[0] }
        roster["results"] = results
        roster["resultCount"] = results.count
        try bed.overrideRoster("de", roster)
        try bed.refresh("de")
        let next = try watcher.next()
        #expect(next.int("revision") == revision + 1, "a reply came for the rating-only refresh: \(next)")
        #expect(next.appIDs == Array(ids.dropFirst()))
    }

    @Test("a reload that changes the served answer reaches watchers with a new revision; one that does not, nothing")
    func reloadReachesWatchers() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start()
        try bed.waitUntilWarm()
        let watcher = try bed.client()
        let first = try watcher.call("io.showcase.Roster.Watch", ["storefront": "de"], more: true)
        let revision = try #require(first.int("revision"))
        let ids = first.appIDs
        #expect(ids.count >= 3)

        bed.extra = "default_platform: ios\n"  // a reload that changes nothing served
        #expect(try bed.reload().error == nil)
        try bed.writeOverlay("excluded: [\(ids[1])]\n")
        #expect(try bed.reload().error == nil)
        let next = try watcher.next()
        #expect(next.int("revision") == revision + 1, "\(next)")
        #expect(next.appIDs == ids.filter { $0 != ids[1] })
    }
}
