import Foundation
import Testing

@Suite("Status counts", .serialized)
struct StatusCountTests {
    @Test("Status counts the apps Get serves — not the host app itself — for every warm storefront")
    func statusCountsWhatGetServes() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        for storefront in bed.storefronts {
            let served = try bed.get(storefront).appIDs
            #expect(!served.isEmpty)
            let entry = try #require(try bed.statusEntry(storefront))
            #expect(entry["apps"] as? Int == served.count, "\(storefront): \(entry) vs \(served)")
        }
    }
}
