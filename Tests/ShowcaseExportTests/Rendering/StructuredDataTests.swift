import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

@Suite("Structured data")
struct StructuredDataTests {
    let renderer = HTMLFragmentRenderer(tree: .standard)

    @Test("is a schema.org ItemList of SoftwareApplications with numeric offers, category and description, no ratings")
    func itemList() throws {
        let rows = [
            WebSamples.row(1, "Lanternlight", tagline: "Tide light", genreId: 6002),
            WebSamples.row(2, "Knots", genreId: 7012, price: 9.99, currency: "CAD", formattedPrice: "9,99 $"),
            WebSamples.row(3, "Priceless", genreId: 6009, price: nil, currency: nil, formattedPrice: nil),
        ]
        let html = text(renderer.render(WebSamples.document([]), listings: rows))
        let list = try structuredData(html)
        #expect(list["@context"] as? String == "https://schema.org")
        #expect(list["@type"] as? String == "ItemList")
        let items = try #require(list["itemListElement"] as? [[String: Any]])
        #expect(items.map { $0["@type"] as? String } == ["ListItem", "ListItem", "ListItem"])
        #expect(items.map { $0["position"] as? Int } == [1, 2, 3])
        let apps = try softwareApplications(html)
        #expect(apps.map { $0["@type"] as? String } == Array(repeating: "SoftwareApplication", count: 3))
        #expect(apps.map { $0["name"] as? String } == ["Lanternlight", "Knots", "Priceless"])
        #expect(apps[0]["url"] as? String == "https://apps.apple.com/us/app/id1?uo=4")
        #expect(apps[0]["image"] as? String == "https://is1-ssl.mzstatic.com/1/512x512bb.jpg")
        #expect(apps.map { $0["operatingSystem"] as? String } == ["iOS", "iOS", "iOS"])
        #expect(apps.map { $0["applicationCategory"] as? String } == ["UtilitiesApplication", "GameApplication", nil])
        let offer = try #require(apps[1]["offers"] as? [String: Any])
        #expect(offer["@type"] as? String == "Offer")
        #expect(offer["price"] as? Double == 9.99, "a number, not the formatted text")
        #expect(offer["priceCurrency"] as? String == "CAD")
        #expect((apps[0]["offers"] as? [String: Any])?["price"] as? Double == 0)
        #expect(apps[2]["offers"] == nil, "no price, no offer")
        #expect(apps[0]["description"] as? String == "Tide light")
        #expect(apps[1]["description"] == nil)
        #expect(!html.contains("aggregateRating") && !html.contains("ratingValue"))
        let mac = text(renderer.render(WebSamples.document([], platform: .macos), listings: [rows[0]]))
        #expect(try softwareApplications(mac).first?["operatingSystem"] as? String == "macOS")
    }

    @Test("maps App Store genres to Google's categories: games 6014 and 7001–7019, others the closest, none omitted")
    func categories() {
        #expect(AppCategory.schemaOrg(genreId: 6014) == "GameApplication")
        for game in 7001...7019 { #expect(AppCategory.schemaOrg(genreId: game) == "GameApplication") }
        #expect(AppCategory.schemaOrg(genreId: 6002) == "UtilitiesApplication")
        #expect(AppCategory.schemaOrg(genreId: 6007) == "BusinessApplication")
        #expect(AppCategory.schemaOrg(genreId: 6017) == "EducationalApplication")
        #expect(AppCategory.schemaOrg(genreId: 6026) == "DeveloperApplication")
        #expect(AppCategory.schemaOrg(genreId: 6009) == nil, "News fits none of Google's values")
        #expect(AppCategory.schemaOrg(genreId: 12006) == "GameApplication")
        #expect(AppCategory.schemaOrg(genreId: 12201) == "GameApplication")
        #expect(AppCategory.schemaOrg(genreId: 12019) == "UtilitiesApplication")
        #expect(AppCategory.schemaOrg(genreId: 12012) == nil, "Mac News fits none either")
        #expect(AppCategory.schemaOrg(genreId: 7020) == nil)
        #expect(AppCategory.schemaOrg(genreId: nil) == nil)
        let mapped = Array(6000...6027).compactMap { AppCategory.schemaOrg(genreId: $0) }
        #expect(mapped.count == 25)
        let macMapped = Array(12001...12022).compactMap { AppCategory.schemaOrg(genreId: $0) }
        #expect(macMapped.count == 20)
        #expect(mapped.allSatisfy { AppCategory.googleValues.contains($0) })
    }
}
