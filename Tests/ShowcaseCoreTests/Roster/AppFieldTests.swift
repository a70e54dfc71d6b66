import Foundation
import Testing

@testable import ShowcaseCore

/// The field table (`AppField.all`) as the one declaration of the served app: the projection writes exactly its
/// fields in its order, and an upstream text declared there is read from the row, kept in `App`'s JSON form and
/// left out when upstream leaves it out.
@Suite("The App's field table")
struct AppFieldTests {
    /// Ropework Puzzles, the fixture's one 9+ app.
    static let ropework = 1_641_000_110

    @Test("the projection writes the table's fields, in its order, for an app that has them all")
    func projectionIsTheTable() throws {
        var app = try #require(Fixtures.roster("us").apps.first { $0.id == Self.ropework })
        app.price = 0.99
        app.currency = "USD"
        app.formattedPrice = "$0.99"
        let names = ResolvedApp(app: app, storeUrl: app.storeUrl, tagline: "T").fieldNames
        #expect(names == AppField.all.map(\.name))
        #expect(AppField.upstreamTexts.map(\.name) == ["contentAdvisoryRating"])
        #expect(AppField.idlType.hasSuffix("genreId: ?int, contentAdvisoryRating: ?string)"), "\(AppField.idlType)")
    }

    @Test("contentAdvisoryRating is the row's, as Apple writes it, in every app of the fixture's rosters")
    func ratingFromTheRow() throws {
        let apps = Fixtures.roster("us").apps
        #expect(apps.first { $0.id == Self.ropework }?.upstreamTexts == ["contentAdvisoryRating": "9+"])
        #expect(apps.filter { $0.upstreamTexts["contentAdvisoryRating"] == "4+" }.count == apps.count - 1)
    }

    @Test(
        "a row without a rating, or with an empty or non-string one, has none: absent stays absent",
        arguments: [
            "", #","contentAdvisoryRating":"""#, #","contentAdvisoryRating":12"#, #","contentAdvisoryRating":null"#,
        ])
    func absentRating(member: String) throws {
        let body = Data(
            (#"{"resultCount":1,"results":[{"wrapperType":"software","kind":"software","trackId":42"# + member + "}]}")
                .utf8)
        let row = try #require(try LookupResponse.decode(body).results.first)
        #expect(row.texts.isEmpty)
        #expect(row.trackId == 42)
    }

    @Test("an overlong rating is cut like any other upstream text")
    func boundedRating() throws {
        let long = String(repeating: "9", count: 5000)
        let body = Data(#"{"resultCount":1,"results":[{"contentAdvisoryRating":"\#(long)"}]}"#.utf8)
        let row = try #require(try LookupResponse.decode(body).results.first)
        #expect(row.texts["contentAdvisoryRating"] == TextBound.other(long))
        #expect(row.texts["contentAdvisoryRating"] != long)
    }

    @Test("App's JSON form carries the rating, and an app without one decodes without one")
    func jsonForm() throws {
        let app = try #require(Fixtures.roster("us").apps.first { $0.id == Self.ropework })
        let data = try JSONEncoder().encode(app)
        #expect(String(decoding: data, as: UTF8.self).contains(#""contentAdvisoryRating":"9+""#))
        #expect(try JSONDecoder().decode(App.self, from: data) == app)
        var bare = app
        bare.upstreamTexts = [:]
        let bareData = try JSONEncoder().encode(bare)
        #expect(!String(decoding: bareData, as: UTF8.self).contains("contentAdvisoryRating"))
        #expect(try JSONDecoder().decode(App.self, from: bareData).upstreamTexts.isEmpty)
    }
}
