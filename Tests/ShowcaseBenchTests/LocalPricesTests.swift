import Foundation
import Testing

@testable import showcase_bench

@Suite("gen-cache --local-prices: each storefront lists the apps in its own currency")
struct LocalPricesTests {
    private static let template = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/lookup/roster-1641000001-us.json").path

    private func rows(_ body: Data) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        return results.filter { $0["wrapperType"] as? String == "software" }
    }

    @Test("every row has the storefront's own currency, label and rating count; without it only the URL differs")
    func rowsDifferPerStorefront() throws {
        let generator = try LookupFixtureGenerator(templatePath: Self.template)
        let de = try rows(generator.rosterBody(apps: 3, storefront: "de", localPrices: true))
        let fr = try rows(generator.rosterBody(apps: 3, storefront: "fr", localPrices: true))
        #expect(de.count == 3 && fr.count == 3)
        #expect(de.allSatisfy { $0["currency"] as? String == "DEX" })
        #expect(fr.allSatisfy { $0["currency"] as? String == "FRX" })
        #expect(de.allSatisfy { ($0["formattedPrice"] as? String)?.hasSuffix("(de)") == true })
        let deCounts = de.compactMap { $0["userRatingCount"] as? Int }
        let frCounts = fr.compactMap { $0["userRatingCount"] as? Int }
        #expect(deCounts.count == 3 && frCounts.count == 3 && deCounts != frCounts)
        // Without the flag, two storefronts' rows are alike but for the store URL.
        let plainDe = try rows(generator.rosterBody(apps: 3, storefront: "de"))
        let plainFr = try rows(generator.rosterBody(apps: 3, storefront: "fr"))
        for (a, b) in zip(plainDe, plainFr) {
            #expect(a["currency"] as? String == "USD" && b["currency"] as? String == "USD")
            #expect(a["userRatingCount"] as? Int == b["userRatingCount"] as? Int)
            #expect((a["trackViewUrl"] as? String)?.contains("/de/") == true)
            #expect((b["trackViewUrl"] as? String)?.contains("/fr/") == true)
        }
    }
}
