import Foundation
import ShowcaseCore
import Testing

@Suite("Decoding lookup responses")
struct DecodingTests {
    @Test("the mixed catalog decodes into iOS and Mac apps, and the artist row is not an app")
    func mixedCatalog() {
        let roster = Fixtures.roster("us")
        #expect(roster.resultCount == 18)
        #expect(roster.apps.count == 17)
        #expect(roster.apps.filter { $0.platform == .macos }.count == 5)
        #expect(roster.apps.filter { $0.platform == .ios }.count == 12)
        #expect(!roster.apps.contains { $0.id == Fixtures.artistId })
    }

    @Test("names, genres and prices are served exactly as the storefront localized them")
    func storefrontLocalized() throws {
        let jp = Fixtures.roster("jp")
        let knotbook = try #require(jp.app(id: Fixtures.knotbookId))
        #expect(knotbook.name == "Knotbook ロープワーク図鑑")
        #expect(knotbook.formattedPrice == "¥500")
        #expect(knotbook.currency == "JPY")
        #expect(knotbook.genre == "辞書/辞典/その他")
        let de = try #require(Fixtures.roster("de").app(id: Fixtures.tideLogId))
        #expect(de.formattedPrice == "Gratis")
        #expect(de.name == "TideLog: Gezeitentabellen")
    }

    @Test("an app absent from a storefront is simply not there, with no fallback to another storefront")
    func absentApp() {
        #expect(Fixtures.roster("jp").app(id: Fixtures.galleyId) == nil)
        #expect(Fixtures.roster("us").app(id: Fixtures.galleyId) != nil)
    }

    @Test("price and ratings decode as floats and fileSizeBytes as a string")
    func wireTypes() throws {
        let response = try LookupResponse.decode(Fixtures.data("roster-1641000001-us.json"))
        let row = try #require(response.results.first { $0.trackId == Fixtures.knotbookId })
        #expect(row.price == 2.99)
        #expect(row.averageUserRating != nil)
        #expect(row.fileSizeBytes.flatMap { Int($0) } != nil)
    }

    @Test("a field of an unexpected type is nil instead of failing the whole body")
    func wrongFieldType() throws {
        let body = Data(
            #"{"resultCount":1,"results":[{"wrapperType":"software","kind":"software","price":"free","trackId":"42"}]}"#
                .utf8)
        let row = try #require(try LookupResponse.decode(body).results.first)
        #expect(row.price == nil)
        #expect(row.trackId == 42)
    }

    @Test("an unknown kind drops the row, a row missing a needed field is dropped, neither is fatal")
    func droppedRows() throws {
        let text = String(decoding: Fixtures.data("roster-1641000001-us.json"), as: UTF8.self)
            .replacingOccurrences(of: #""kind":"mac-software""#, with: #""kind":"tv-software""#)
            .replacingOccurrences(
                of: #""trackViewUrl":"https://apps.apple.com/us/app/knotbook/id1641000102?uo=4", "#, with: "")
        let roster = try Roster(
            artistId: Fixtures.artistId, storefront: .unitedStates, body: Data(text.utf8), fetchedAt: Date())
        #expect(roster.apps.allSatisfy { $0.platform == .ios })
        #expect(roster.app(id: Fixtures.knotbookId) == nil)
        #expect(roster.apps.count == 11)
        #expect(roster.resultCount == 18)
    }

    @Test("the missing-entity signature is an error, not an empty roster")
    func missingEntity() {
        #expect(throws: LookupError.missingEntityParameter(storefront: .unitedStates, resultCount: 1)) {
            try Roster(
                artistId: Fixtures.artistId, storefront: .unitedStates,
                body: Fixtures.data("artist-1641000001-us.json"), fetchedAt: Date())
        }
    }

    @Test("resultCount 0 is a valid empty roster: the developer sells nothing in this storefront")
    func emptyRoster() throws {
        let roster = try Roster(
            artistId: Fixtures.artistId, storefront: .unitedStates, body: Fixtures.data("empty.json"),
            fetchedAt: Date())
        #expect(roster.apps.isEmpty)
        #expect(roster.resultCount == 0)
    }

    @Test("a 2xx HTML page is a malformed response, not an empty roster")
    func htmlIsMalformed() {
        #expect {
            try LookupResponse.decode(Fixtures.data("malformed.html"))
        } throws: { error in
            guard case .malformed(let detail) = error as? LookupError else { return false }
            return detail.contains("not JSON")
        }
    }

    @Test("a body truncated mid-transfer is malformed")
    func truncatedIsMalformed() {
        let body = Fixtures.data("roster-1641000001-us.json").prefix(5000)
        #expect {
            try Roster(artistId: Fixtures.artistId, storefront: .unitedStates, body: Data(body), fetchedAt: Date())
        } throws: { error in
            if case .malformed = error as? LookupError { return true }
            return false
        }
    }

    @Test("an empty 200 body and JSON without results are malformed")
    func emptyAndForeignJSON() {
        for body in ["", "\n\n", #"{"errorMessage":"Invalid value(s) for key(s): [country]"}"#, "[]"] {
            #expect(throws: LookupError.self) { try LookupResponse.decode(Data(body.utf8)) }
        }
    }

    @Test("a roster that describes another developer is malformed")
    func wrongDeveloper() {
        #expect {
            try Roster(
                artistId: 99, storefront: .unitedStates, body: Fixtures.data("roster-1641000001-us.json"),
                fetchedAt: Date())
        } throws: { error in
            if case .malformed = error as? LookupError { return true }
            return false
        }
    }

    @Test("the host's identity gives its developer and its own track id")
    func identity() throws {
        let identity = try HostIdentity.decode(
            bundleId: Fixtures.knotbook, storefront: Fixtures.storefront("jp"),
            body: Fixtures.data("identity-com.quietharbor.Knotbook-jp.json"), resolvedAt: Date())
        #expect(identity.artistId == Fixtures.artistId)
        #expect(identity.trackId == Fixtures.knotbookId)
    }

    @Test("an identity lookup with no result is host app not found, naming the bundle id")
    func hostNotFound() {
        let error = LookupError.hostAppNotFound(bundleId: "com.quietharbor.Typo", storefront: .unitedStates)
        #expect(throws: error) {
            try HostIdentity.decode(
                bundleId: "com.quietharbor.Typo", storefront: .unitedStates, body: Fixtures.data("empty.json"),
                resolvedAt: Date())
        }
        #expect(error.description.contains("com.quietharbor.Typo"))
    }

    @Test("a roster with identical apps but a later fetch time has the same content")
    func sameContent() {
        let first = Fixtures.roster("us", fetchedAt: Date(timeIntervalSince1970: 0))
        let second = Fixtures.roster("us", fetchedAt: Date(timeIntervalSince1970: 86_400))
        #expect(first.hasSameContent(as: second))
        var churned = second.apps
        churned[0].averageUserRating = 1.0
        churned[0].userRatingCount = 2
        churned[0].version = "99.0"
        let rated = Roster(
            artistId: second.artistId, storefront: second.storefront, fetchedAt: second.fetchedAt,
            resultCount: second.resultCount, apps: churned, body: nil)
        #expect(first.hasSameContent(as: rated), "ratings and version are not served")
        churned[0].price = 0.99
        let repriced = Roster(
            artistId: second.artistId, storefront: second.storefront, fetchedAt: second.fetchedAt,
            resultCount: second.resultCount, apps: churned, body: nil)
        #expect(!first.hasSameContent(as: repriced), "price is served")
        #expect(!first.hasSameContent(as: Fixtures.roster("de")))
    }

    @Test("an app round-trips through its JSON form with the Varlink field names")
    func appJSON() throws {
        let app = try #require(Fixtures.roster("jp").app(id: Fixtures.tideLogMacId))
        let data = try JSONEncoder().encode(app)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in [
            "id", "artistId", "name", "bundleId", "genre", "platform", "minimumOsVersion", "iconUrl", "storeUrl",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["minimumOS"] == nil)
        let decoded = try JSONDecoder().decode(App.self, from: data)
        #expect(decoded == app)
        #expect(decoded.minimumOS == OSVersion("10.13"))
    }

    @Test("a row whose floor is not a version is dropped")
    func unparseableFloor() throws {
        let text = String(decoding: Fixtures.data("roster-1641000001-us.json"), as: UTF8.self)
            .replacingOccurrences(of: #""minimumOsVersion":"9.0""#, with: #""minimumOsVersion":"nine""#)
        let roster = try Roster(
            artistId: Fixtures.artistId, storefront: .unitedStates, body: Data(text.utf8), fetchedAt: Date())
        #expect(roster.app(id: Fixtures.lanternlightId) == nil)
        #expect(roster.apps.count == 16)
    }
}
