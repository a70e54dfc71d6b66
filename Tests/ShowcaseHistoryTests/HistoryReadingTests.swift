import Foundation
import ShowcaseCore
import ShowcaseHistory
import Testing

@Suite("History as shown")
struct HistoryReadingTests {
    static func entries(_ serials: ClosedRange<Int>) -> [HistoryEntry] {
        serials.map { serial in
            HistoryEntry(
                serial: serial, at: Samples.start, kind: .updated, id: 100 + serial % 3, name: "App", platform: .ios,
                storeUrl: "https://apps.apple.com/us/app/id\(100 + serial % 3)?uo=4", iconUrl: "https://x/1.jpg")
        }
    }

    @Test("a page is newest first: without since the newest, with since the oldest after it")
    func paging() {
        let all = Self.entries(1...10)
        #expect(all.page(since: nil, limit: 3).map(\.serial) == [10, 9, 8])
        #expect(all.page(since: 4, limit: 3).map(\.serial) == [7, 6, 5])
        #expect(all.page(since: 8, limit: 100).map(\.serial) == [10, 9])
        #expect(all.page(since: 10, limit: 5).isEmpty)
        #expect(all.page(since: 0, limit: 100).count == 10)
    }

    @Test("excluded apps and the host never appear, and attribution applies to the store URL")
    func overlay() {
        let shown = Self.entries(1...6).shown(
            overlay: Overlay(excluded: [101]), attribution: Attribution(providerToken: "1234567"),
            hostBundleId: "com.example.Host", hostTrackId: 102)
        #expect(Set(shown.map(\.id)) == [100])
        #expect(shown.allSatisfy { $0.storeUrl.contains("pt=1234567") && $0.storeUrl.contains("uo=4") })
    }
}
