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

    @Test("showcase_roster_apps gives each storefront the number Status shows, not the roster's raw size")
    func metricsCountWhatStatusCounts() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let text = try #require(try bed.client().call("io.showcase.Admin.Metrics").string("text"))
        for storefront in bed.storefronts {
            let entry = try #require(try bed.statusEntry(storefront))
            let prefix = #"showcase_roster_apps{storefront=""# + storefront + #""} "#
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(prefix) }, "\(text)")
            #expect(Int(line.dropFirst(prefix.count)) == entry["apps"] as? Int, "\(storefront): \(line) vs \(entry)")
        }
    }
}
