import Foundation
import Testing

/// The protocol's defaults (docs/protocol.md) and parameter checking, end to end over the real socket.
@Suite("Method contract", .serialized)
struct ContractTests {
    /// Windrose: an iOS app every fixture storefront lists.
    static let windrose = 1_641_000_105

    @Test("Get without a platform answers for default_platform")
    func defaultPlatformApplies() throws {
        let bed = try TestBed()
        bed.extra = "default_platform: macos\n"
        try bed.start()
        try bed.waitUntilWarm()
        let answer = try bed.get("de")
        #expect(answer.error == nil, "\(answer)")
        #expect(!answer.apps.isEmpty)
        #expect(answer.apps.allSatisfy { $0["platform"] as? String == "macos" }, "\(answer.apps)")
        let ios = try bed.get("de", ["platform": "ios"])
        #expect(!ios.apps.isEmpty)
        #expect(ios.apps.allSatisfy { $0["platform"] as? String == "ios" })
    }

    @Test("Get without a host answers for the first configured host, and names it")
    func defaultHostIsTheFirst() throws {
        let bed = try TestBed()
        bed.hosts = [TestBed.tideLog, TestBed.knotbook]
        try bed.start()
        try bed.waitUntilWarm()
        let answer = try bed.get("us")
        #expect(answer.string("host") == TestBed.tideLog)
        #expect(!answer.apps.contains { $0["bundleId"] as? String == TestBed.tideLog })
        #expect(answer.apps.contains { $0["bundleId"] as? String == TestBed.knotbook })
    }

    @Test("a tagline follows the storefront's primary language without a locale, then the tagline's default")
    func localeDefaultsToTheStorefrontLanguage() throws {
        let bed = try TestBed()
        bed.storefronts = ["us", "de", "jp"]
        try bed.writeOverlay(
            """
            taglines:
              \(Self.windrose):
                default: "Wind"
                de: "Wind auf Deutsch"
                ja: "風"

            """)
        try bed.start()
        try bed.waitUntilWarm()
        func tagline(_ storefront: String, _ locale: String? = nil) throws -> String? {
            let reply = try bed.get(storefront, locale.map { ["locale": $0] } ?? [:])
            #expect(reply.error == nil, "\(reply)")
            let app = reply.apps.first { ($0["id"] as? NSNumber)?.intValue == Self.windrose }
            #expect(app != nil, "\(reply)")
            return app?["tagline"] as? String
        }
        #expect(try tagline("de") == "Wind auf Deutsch")
        #expect(try tagline("jp") == "風")
        #expect(try tagline("us") == "Wind")
        #expect(try tagline("de", "ja") == "風")
        #expect(try tagline("de", "fr") == "Wind")
    }

    @Test("a parameter of the wrong type or out of range is InvalidParameter naming that parameter")
    func wrongTypesAreInvalidParameter() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let cases: [(String, [String: Any], String)] = [
            ("io.showcase.Roster.Get", ["storefront": 5], "storefront"),
            ("io.showcase.Roster.Get", [:], "storefront"),
            ("io.showcase.Roster.Get", ["storefront": "de", "waitMs": "x"], "waitMs"),
            ("io.showcase.Roster.Get", ["storefront": "de", "waitMs": -1], "waitMs"),
            ("io.showcase.Roster.Get", ["storefront": "de", "host": 7], "host"),
            ("io.showcase.Roster.Get", ["storefront": "de", "osVersion": "seventeen"], "osVersion"),
            ("io.showcase.Roster.GetApp", ["id": "x", "storefront": "de"], "id"),
            ("io.showcase.Roster.Watch", ["storefront": 5], "storefront"),
            ("io.showcase.Admin.Refresh", ["storefront": 5], "storefront"),
        ]
        for (method, parameters, name) in cases {
            let reply = try bed.client().call(method, parameters)
            #expect(reply.error == "org.varlink.service.InvalidParameter", "\(method) \(parameters): \(reply)")
            #expect(reply.string("parameter") == name, "\(method) \(parameters): \(reply)")
        }
        #expect(try bed.get("de").error == nil)
    }

    @Test("a fetched roster has fetchedAt as an RFC 3339 string; a warming one leaves it out")
    func fetchedAtShape() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let answer = try bed.get("de")
        let fetchedAt = try #require(answer.string("fetchedAt"))
        #expect(fetchedAt.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
        let status = try bed.status()
        let de = (status["storefronts"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "de" }
        #expect(de?["fetchedAt"] as? String == fetchedAt)
        #expect(de?["apps"] is NSNumber)
        #expect(status["lastReloadError"] == nil)
        #expect(status.string("configPath") == bed.configURL.path)

        // jp is not kept warm: the first Get starts its fetch (held back upstream) and answers warming, with no
        // fetchedAt at all (not null, not an empty string).
        bed.replay.inject(.delay(.milliseconds(800)), matching: "country=jp")
        let warming = try bed.get("jp")
        #expect(warming.error == nil, "\(warming)")
        #expect(warming.string("state") == "warming", "\(warming)")
        #expect(warming.parameters.keys.contains("fetchedAt") == false, "\(warming)")
        #expect(warming.apps.isEmpty)
    }

    @Test(
        "every app's field from upstream is its row's value in Get, GetApp and Watch, and still after a restart",
        arguments: [("genreId", "primaryGenreId"), ("contentAdvisoryRating", "contentAdvisoryRating")])
    func upstreamFieldIsServed(field: String, upstreamKey: String) throws {
        let fixture = try JSONSerialization.jsonObject(with: TestBed.fixtureData("roster-\(TestBed.artistId)-de.json"))
        let rows = (fixture as? [String: Any])?["results"] as? [[String: Any]] ?? []
        let expected = Dictionary(
            rows.compactMap { row -> (Int, NSObject)? in
                guard let id = row["trackId"] as? Int, let value = row[upstreamKey] as? NSObject else { return nil }
                return (id, value)
            }, uniquingKeysWith: { first, _ in first })
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start()
        try bed.waitUntilWarm()
        func values(_ apps: [[String: Any]]) -> [Int: NSObject] {
            Dictionary(
                apps.compactMap { app -> (Int, NSObject)? in
                    guard let id = app["id"] as? Int, let value = app[field] as? NSObject else { return nil }
                    return (id, value)
                }, uniquingKeysWith: { first, _ in first })
        }
        let get = try bed.get("de")
        #expect(get.apps.count >= 5)
        #expect(values(get.apps).count == get.apps.count, "every fixture row has \(upstreamKey)")
        #expect(values(get.apps) == expected.filter { get.appIDs.contains($0.key) }, "\(get)")
        let watched = try bed.client().call("io.showcase.Roster.Watch", ["storefront": "de"])
        #expect(values(watched.apps) == values(get.apps), "\(watched)")
        let app = try bed.client().call("io.showcase.Roster.GetApp", ["id": Self.windrose, "storefront": "de"])
        #expect((app["app"] as? [String: Any])?[field] as? NSObject == expected[Self.windrose], "\(app)")

        // Read back from the cache file, not fetched again.
        try #require(try bed.daemon?.stop() == 0)
        let rosters = bed.requests(matching: "entity=software").count
        try bed.start()
        let again = try bed.get("de")
        #expect(bed.requests(matching: "entity=software").count == rosters, "served from the cache")
        #expect(values(again.apps) == values(get.apps), "\(again)")
    }
}
