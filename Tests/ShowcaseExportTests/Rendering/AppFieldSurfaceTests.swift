import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

/// The export's surfaces against the field table (`AppField.all`): a field declared for a surface that the surface
/// does not show fails here, so a declaration cannot promise what a renderer forgot.
@Suite("The field table's export surfaces")
struct AppFieldSurfaceTests {
    /// An app with every optional field of the table set, upstream texts included.
    static let full: App = {
        var app = App(
            id: 1_641_000_109, artistId: 1_641_000_001, name: "HarborMaster", bundleId: "com.quietharbor.HarborMaster",
            genre: "Navigation", formattedPrice: "$2.99", platform: .ios, minimumOsVersion: "17.2",
            iconUrl: "https://is1-ssl.mzstatic.com/1641000109/512x512bb.jpg",
            storeUrl: "https://apps.apple.com/us/app/id1641000109?uo=4", price: 2.99, currency: "USD", genreId: 6010)
        for field in AppField.upstreamTexts { app.upstreamTexts[field.name] = "12+ \(field.name)" }
        return app
    }()

    static let exported = ExportedApp(
        ResolvedApp(app: full, storeUrl: full.storeUrl, tagline: "Every berth"), tagline: .plain("Every berth"))

    /// The JSON value a table value is written as.
    static func json(_ value: AppField.Value) -> NSObject {
        switch value {
        case .int(let number): number as NSNumber
        case .string(let text): text as NSString
        case .float(let number): number as NSNumber
        case .strings(let texts): texts as NSArray
        }
    }

    @Test("the export document's app has every field of the table, with the served value, and no other but its own")
    func documentCarriesEveryField() throws {
        var bytes: [UInt8] = []
        Self.exported.write(to: &bytes, indent: 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        for field in AppField.all {
            let value = try #require(field.value(of: Self.exported.resolved), "\(field.name) unset in the sample")
            #expect((object[field.name] as? NSObject) == Self.json(value), "\(field.name)")
        }
        #expect(Set(object.keys) == Set(AppField.all.map(\.name)).union(["taglines"]))
        #expect(object["contentAdvisoryRating"] as? String == "12+ contentAdvisoryRating")
    }

    @Test("every field the table shows in the schema.org object is there, in the fragments' list and on an app page")
    func structuredDataCarriesItsFields() throws {
        let fields = AppField.all.filter { $0.surfaces.contains(.structuredData) }
        #expect(fields.map(\.schemaOrgName) == ["contentRating"])
        let renderer = HTMLFragmentRenderer(tree: .standard)
        let fragment = text(
            renderer.render(
                WebSamples.document([Self.exported]), listings: [WebListing(Self.exported, on: .html)]))
        let listed = try #require(try softwareApplications(fragment).first)
        let page = text(StructuredData.application(WebListing(Self.exported, on: .site), tree: .standard))
        let own = try #require(try JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])
        #expect(own["@type"] as? String == "SoftwareApplication")
        for field in fields {
            let name = try #require(field.schemaOrgName)
            let value = try #require(field.value(of: Self.exported.resolved))
            #expect((listed[name] as? NSObject) == Self.json(value), "\(name) in the fragment")
            #expect((own[name] as? NSObject) == Self.json(value), "\(name) on the app page")
        }
        #expect(own["contentRating"] as? String == "12+ contentAdvisoryRating")
    }

    @Test("an app upstream gave no age rating has none anywhere: no member, no empty string")
    func absentStaysAbsent() throws {
        var bare = Self.full
        bare.upstreamTexts = [:]
        let exported = ExportedApp(ResolvedApp(app: bare, storeUrl: bare.storeUrl, tagline: nil), tagline: nil)
        var bytes: [UInt8] = []
        exported.write(to: &bytes, indent: 0)
        #expect(!text(bytes).contains("contentAdvisoryRating"))
        let page = text(StructuredData.application(WebListing(exported, on: .site), tree: .standard))
        #expect(!page.contains("contentRating"))
    }
}
