import Foundation
import Testing

@testable import ShowcaseCore

/// The served app (`ResolvedApp.writeFields(to:)`) and what counts as a change of the roster
/// (`App.hasSameServedFields(as:)`, which decides a new revision, a new `Watch` reply and a new reply-cache entry)
/// must cover the same fields: a field added to the projection but not to the comparison would be served stale
/// after a refresh that changed only it.
@Suite("Served fields: what the projection writes is what a refresh compares")
struct ServedFieldsTests {
    /// One change per field the projection writes, named as it writes it.
    static let changes: [String: @Sendable (inout App) -> Void] = [
        "id": { $0.id += 1 },
        "artistId": { $0.artistId += 1 },
        "name": { $0.name += " 2" },
        "bundleId": { $0.bundleId += "2" },
        "genre": { $0.genre += " 2" },
        "formattedPrice": { $0.formattedPrice = "9,99 €" },
        "price": { $0.price = 9.99 },
        "currency": { $0.currency = "CHF" },
        "platform": { $0.platform = .macos },
        "devices": { $0.devices = DeviceFamilies(.watch) },
        "minimumOsVersion": { $0.minimumOsVersion = "99.0" },
        "iconUrl": { $0.iconUrl += "?2" },
        "storeUrl": { $0.storeUrl += "&2" },
        "genreId": { $0.genreId = 6014 },
        "contentAdvisoryRating": { $0.upstreamTexts["contentAdvisoryRating"] = "17+" },
    ]

    /// The fixture's Lanternlight (every optional field set) in `de`.
    static let app: App = Fixtures.roster("de").apps.first { $0.id == 1_641_000_103 }!

    @Test("every field the projection writes has a change here (tagline comes from the overlay, not the roster)")
    func everyProjectedFieldIsListed() {
        let names = ResolvedApp(app: Self.app, storeUrl: Self.app.storeUrl, tagline: "T").fieldNames
        #expect(names.contains("genreId") && names.contains("price"), "the sample lacks a field")
        #expect(Set(names).subtracting(["tagline"]) == Set(Self.changes.keys))
    }

    @Test(
        "a change in any served field is a change of the app; version and ratings are not",
        arguments: changes.keys.sorted())
    func servedFieldCounts(field: String) {
        var changed = Self.app
        Self.changes[field]!(&changed)
        #expect(!changed.hasSameServedFields(as: Self.app), "\(field)")
        #expect(!Self.app.hasSameServedFields(as: changed), "\(field)")
        var churned = Self.app
        churned.version = "99.0"
        churned.averageUserRating = 1.0
        churned.userRatingCount = 2
        #expect(churned.hasSameServedFields(as: Self.app))
    }
}
