import Foundation
import ShowcaseCore
import Testing

@Suite("The 200-row ceiling")
struct TruncationTests {
    @Test("a roster with 200 software rows is truncated, dropped rows included; a smaller one is not")
    func twoHundredRows() throws {
        let roster = try Roster(
            artistId: 1_643_000_001, storefront: Fixtures.storefront("us"),
            body: Fixtures.data("roster-1643000001-us.json"),
            fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(roster.apps.count == 199)
        #expect(roster.droppedRows.count == 1)
        #expect(roster.isTruncated)
        #expect(!Fixtures.roster("us").isTruncated)
        #expect(!Fixtures.lamplightRoster().isTruncated)
    }
}
