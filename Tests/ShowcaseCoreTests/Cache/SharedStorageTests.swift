import Foundation
import Testing

@testable import ShowcaseCore

@Suite("Shared app storage")
struct SharedStorageTests {
    let directory: URL
    let cache: FileCache

    init() {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("showcase-shared-\(UUID().uuidString)", isDirectory: true)
        cache = FileCache(directory: directory)
    }

    /// `roster`'s apps as another storefront lists them alike: the same fields, the store URLs naming `code`.
    static func sameApps(_ roster: Roster, in code: String) -> Roster {
        let apps = roster.apps.map { app in
            var moved = app
            moved.storeUrl = app.storeUrl.replacingOccurrences(of: "/\(roster.storefront.code)/", with: "/\(code)/")
            return moved
        }
        return Roster(
            artistId: roster.artistId, storefront: Fixtures.storefront(code), fetchedAt: roster.fetchedAt,
            resultCount: roster.resultCount, apps: apps, body: roster.body)
    }

    @Test("an app listed alike in two storefronts is decoded from the cache into the sibling's storage")
    func decodingShares() throws {
        let us = Fixtures.roster("us")
        let gb = Self.sameApps(us, in: "gb")
        try cache.store(gb)
        let entry = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: entry, sharingWith: us))
        #expect(decoded.apps == gb.apps)
        #expect(decoded.apps.map(\.storeUrl) == gb.apps.map(\.storeUrl))
        #expect(decoded.apps.allSatisfy { $0.storeUrl.contains("/gb/") })
        for (app, sibling) in zip(decoded.apps, us.apps) {
            #expect(app.sharesStorage(with: sibling))
        }
        // Without a sibling, nothing is shared.
        let alone = try #require(cache.loadRoster(listed: entry))
        #expect(alone.apps == gb.apps)
        #expect(!zip(alone.apps, us.apps).contains { $0.sharesStorage(with: $1) })
    }

    @Test("an app that differs in any field, served or not, gets storage of its own and keeps its content")
    func differentContentDoesNotShare() throws {
        let us = Fixtures.roster("us")
        var gb = Self.sameApps(us, in: "gb").apps
        gb[0].name = "Another name"
        gb[1].averageUserRating = 1.25
        gb[2].formattedPrice = nil
        gb[3].storeUrl = "https://apps.apple.com/gb/app/another-slug/id\(gb[3].id)?uo=4"
        gb[4].minimumOsVersion = "99.0"
        gb[5].upstreamTexts["contentAdvisoryRating"] = "17+"
        gb[6].upstreamTexts = [:]
        let roster = Roster(
            artistId: us.artistId, storefront: Fixtures.storefront("gb"), fetchedAt: us.fetchedAt,
            resultCount: us.resultCount, apps: gb, body: us.body)
        try cache.store(roster)
        let entry = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: entry, sharingWith: us))
        let refreshed = roster.sharingStorage(with: us)
        for result in [decoded.apps, refreshed.apps] {
            #expect(result == gb)
            for index in 0..<7 { #expect(!result[index].sharesStorage(with: us.apps[index])) }
            for index in 7..<gb.count { #expect(result[index].sharesStorage(with: us.apps[index])) }
            // A rating or a price label of its own is the listing's: the app's record is still the sibling's.
            for index in [1, 2] { #expect(result[index].sharesAppRecord(with: us.apps[index])) }
            for index in [0, 3, 4, 5, 6] { #expect(!result[index].sharesAppRecord(with: us.apps[index])) }
            #expect(result[5].upstreamTexts == ["contentAdvisoryRating": "17+"] && result[6].upstreamTexts.isEmpty)
        }
        #expect(refreshed.hasSameContent(as: roster))
    }

    /// `roster`'s apps as a storefront in another currency lists them: its own price, currency, label and ratings.
    static func priced(_ roster: Roster, in code: String, currency: String) -> Roster {
        let moved = sameApps(roster, in: code)
        let apps = moved.apps.enumerated().map { index, app in
            var priced = app
            priced.currency = currency
            priced.price = Double(index) + 0.5
            priced.formattedPrice = "\(currency) \(index),50"
            priced.averageUserRating = 4.25
            priced.userRatingCount = 10 + index
            return priced
        }
        return Roster(
            artistId: moved.artistId, storefront: moved.storefront, fetchedAt: moved.fetchedAt,
            resultCount: moved.resultCount, apps: apps, body: moved.body)
    }

    @Test("an app priced and rated in each storefront's own currency still shares the app's record with its sibling")
    func otherCurrencySharesTheRecord() throws {
        let us = Fixtures.roster("us")
        let de = Self.priced(us, in: "de", currency: "EUR")
        try cache.store(de)
        let entry = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: entry, sharingWith: us))
        for result in [decoded, de.sharingStorage(with: us)] {
            #expect(result.apps == de.apps)
            #expect(result.apps.map(\.currency) == de.apps.map(\.currency))
            #expect(result.apps.map(\.formattedPrice) == de.apps.map(\.formattedPrice))
            #expect(result.apps.map(\.userRatingCount) == de.apps.map(\.userRatingCount))
            for (app, sibling) in zip(result.apps, us.apps) {
                #expect(app.sharesAppRecord(with: sibling))
                #expect(!app.sharesStorage(with: sibling))
                #expect(!app.hasSameServedFields(as: sibling))
            }
        }
        // A third storefront in the same currency, priced and rated alike, shares the listing as well.
        let at = Self.priced(us, in: "at", currency: "EUR")
        let sharedAt = at.sharingStorage(with: decoded)
        #expect(sharedAt.apps == at.apps)
        #expect(zip(sharedAt.apps, decoded.apps).allSatisfy { $0.sharesStorage(with: $1) })
    }

    @Test("an absent price, rating or count reads back absent, and zero reads back zero")
    func listingKeepsAbsentApartFromZero() throws {
        var app = Fixtures.roster("us").apps[0]
        app.price = 0
        app.averageUserRating = nil
        app.userRatingCount = 0
        #expect(app.price == 0)
        #expect(app.averageUserRating == nil)
        #expect(app.userRatingCount == 0)
        var other = app
        other.price = nil
        other.averageUserRating = 0
        other.userRatingCount = nil
        #expect(other.price == nil)
        #expect(other.averageUserRating == 0)
        #expect(other.userRatingCount == nil)
        #expect(app != other)
        #expect(!app.hasSameServedFields(as: other))  // a free app is not one without a price
        let roundTrip = try JSONDecoder().decode([App].self, from: JSONEncoder().encode([app, other]))
        #expect(roundTrip == [app, other])
        #expect(roundTrip[0].price == 0 && roundTrip[1].price == nil)
    }

    @Test("real storefronts that localize names and URLs share nothing they do not have in common")
    func localizedFixturesKeepTheirContent() throws {
        let us = Fixtures.roster("us")
        for code in ["de", "jp"] {
            let other = Fixtures.roster(code)
            try cache.store(other)
            let entry = try #require(cache.listRosters().first { $0.storefront.code == code })
            let decoded = try #require(cache.loadRoster(listed: entry, sharingWith: us))
            #expect(decoded.apps == other.apps)
            #expect(decoded.apps.map(\.storeUrl) == other.apps.map(\.storeUrl))
            #expect(other.sharingStorage(with: us).apps == other.apps)
        }
    }

    @Test("storefronts that localize names keep one dictionary of upstream texts per app, decoded or refreshed")
    func localizedAppsShareTheirUpstreamTexts() throws {
        let us = Fixtures.roster("us")
        let de = Fixtures.roster("de")
        try cache.store(de)
        let entry = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: entry, sharingWith: us))
        let siblings = Dictionary(uniqueKeysWithValues: us.apps.map { ($0.id, $0) })
        for result in [decoded.apps, de.sharingStorage(with: us).apps] {
            let localized = result.filter { !$0.sharesAppRecord(with: siblings[$0.id]!) }
            #expect(!localized.isEmpty, "the de fixture localizes names")
            for app in localized {
                #expect(Self.sameStorage(app.upstreamTexts, siblings[app.id]!.upstreamTexts), "\(app.id)")
            }
        }
        #expect(!Self.sameStorage(["a": "4+"], ["a": "4+"]), "the check tells two equal dictionaries apart")
    }

    /// True when both are the same dictionary storage: a `Dictionary` is one reference, so its bytes say which.
    static func sameStorage(_ a: [String: String], _ b: [String: String]) -> Bool {
        withUnsafeBytes(of: a) { left in withUnsafeBytes(of: b) { right in left.elementsEqual(right) } }
    }

    @Test("a refresh shares the storage of the roster it replaces when the apps are equal")
    func refreshShares() {
        let us = Fixtures.roster("us")
        let again = Fixtures.roster("us").sharingStorage(with: us)
        #expect(zip(again.apps, us.apps).allSatisfy { $0.sharesStorage(with: $1) })
        let gb = Self.sameApps(us, in: "gb")
        let shared = gb.sharingStorage(with: us)
        #expect(shared.apps == gb.apps)
        #expect(zip(shared.apps, us.apps).allSatisfy { $0.sharesStorage(with: $1) })
    }

    @Test("setting a field of an app that shares storage changes that app only")
    func copyOnWrite() {
        let us = Fixtures.roster("us")
        let shared = Self.sameApps(us, in: "gb").sharingStorage(with: us)
        var app = shared.apps[0]
        app.name = "Renamed"
        app.minimumOsVersion = "17.4"
        #expect(app.name == "Renamed")
        #expect(app.minimumOS == OSVersion("17.4"))
        #expect(shared.apps[0].name == us.apps[0].name)
        #expect(us.apps[0].minimumOsVersion != "17.4")
        #expect(!app.sharesStorage(with: us.apps[0]))
        #expect(app.storeUrl == shared.apps[0].storeUrl)
    }

    @Test("two apps with the same store URL are equal and hash alike, whichever storefront's template they hold")
    func equalityIgnoresTheTemplate() {
        let us = Fixtures.roster("us")
        let viaTemplate = Self.sameApps(us, in: "gb").sharingStorage(with: us).apps[0]
        let own = Self.sameApps(us, in: "gb").apps[0]
        #expect(viaTemplate.sharesStorage(with: us.apps[0]))
        #expect(viaTemplate == own)
        #expect(viaTemplate.hashValue == own.hashValue)
        #expect(viaTemplate.hasSameServedFields(as: own))
        #expect(viaTemplate != us.apps[0])
        #expect(!viaTemplate.hasSameServedFields(as: us.apps[0]))
    }

    static let urls = [
        "https://apps.apple.com/us/app/tidelog/id1641000101?uo=4",
        "https://apps.apple.com/DE/app/x/id1",
        "https://apps.apple.com/app/tidelog/id1641000101",
        "https://apps.apple.com/us",
        "https://apps.apple.com/usa/app/x/id1",
        "https://apps.apple.com//us/app/x",
        "https://apps.apple.com/u1/app/x",
        "https://apps.apple.com/dé/app/x",
        "apps.apple.com/us/app/x",
        "https://example.org",
        "itms-apps://itunes.apple.com/jp/app/id1?mt=8",
        "not a url at all",
        "://",
        "x",
        "",
    ]

    @Test("every store URL reads back byte for byte, with or without a storefront segment", arguments: urls)
    func storeUrlRoundTrips(url: String) throws {
        let app = App(
            id: 1, artistId: 2, name: "n", bundleId: "b", genre: "g", formattedPrice: nil, platform: .ios,
            minimumOsVersion: "16.0", iconUrl: "i", storeUrl: url)
        #expect(Array(app.storeUrl.utf8) == Array(url.utf8))
        var changed = app
        changed.storeUrl = url + "#"
        #expect(changed.storeUrl == url + "#")
        #expect(app.storeUrl == url)
        let decoded = try JSONDecoder().decode(App.self, from: JSONEncoder().encode(app))
        #expect(decoded == app)
        #expect(decoded.storeUrl == url)
        // A template from one storefront gives another storefront's URL exactly, and only for the same shape.
        let template = StoreURLTemplate(splitting: url)
        #expect(template.url(segment: template.ownSegment) == url)
        #expect(template.match(url) == template.ownSegment)
        #expect(template.match(url + "/") == nil)
    }

    @Test("a template built from one storefront's URL rebuilds another's exactly, and refuses other shapes")
    func templateAcrossStorefronts() throws {
        let template = StoreURLTemplate(splitting: "https://apps.apple.com/us/app/tidelog/id1?uo=4")
        #expect(template.offset == "https://apps.apple.com/".utf8.count)
        let jp = try #require(template.match("https://apps.apple.com/jp/app/tidelog/id1?uo=4"))
        #expect(template.url(segment: jp) == "https://apps.apple.com/jp/app/tidelog/id1?uo=4")
        let upper = try #require(template.match("https://apps.apple.com/JP/app/tidelog/id1?uo=4"))
        #expect(template.url(segment: upper) == "https://apps.apple.com/JP/app/tidelog/id1?uo=4")
        #expect(template.match("https://apps.apple.com/jp/app/tidelog/id2?uo=4") == nil)
        #expect(template.match("https://apps.apple.com/jpn/app/tidelog/id1?uo=4") == nil)
        #expect(template.match("https://apps.apple.co/jp/app/tidelog/id1?uo=4x") == nil)
        let none = StoreURLTemplate(splitting: "https://example.org/app")
        #expect(none.offset == -1)
        #expect(none.match("https://example.org/app") == 0)
        #expect(none.match("https://example.org/apq") == nil)
    }
}
