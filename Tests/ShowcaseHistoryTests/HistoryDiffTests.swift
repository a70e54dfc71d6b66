import Foundation
import ShowcaseCore
import ShowcaseHistory
import Testing

@Suite("History diff")
struct HistoryDiffTests {
    typealias S = Samples

    @Test("the first roster is the baseline and records nothing")
    func firstIsBaseline() {
        let roster = S.roster([S.app(1), S.app(2)])
        let (entries, baseline) = HistoryDiff.compare(roster, with: nil, hostTrackId: nil)
        #expect(entries.isEmpty)
        #expect(Set(baseline.apps.keys) == [1, 2])
        #expect(baseline.artistId == S.developer)
        #expect(baseline.lastSerial == 0)
    }

    @Test("a roster identical to the baseline records nothing and leaves the baseline equal")
    func identical() {
        let roster = S.roster([S.app(1), S.app(2, version: "2.1", price: 2.99, formattedPrice: "$2.99")])
        let baseline = S.baseline(roster)
        let later = S.roster(roster.apps, at: 60)
        let (entries, next) = HistoryDiff.compare(later, with: baseline, hostTrackId: nil)
        #expect(entries.isEmpty)
        #expect(next == baseline)
    }

    @Test("every kind: added, updated with its notes and date, repriced, removed — numbered from the baseline's serial")
    func everyKind() throws {
        var baseline = S.baseline(S.roster([S.app(1), S.app(2), S.app(3, price: 1.99, formattedPrice: "$1.99")]))
        baseline.lastSerial = 41
        let roster = S.roster(
            [
                S.app(1, version: "1.1", notes: "Bug fixes", date: "2026-12-01T08:00:00Z"),
                S.app(3, price: 0.99, formattedPrice: "$0.99"),
                S.app(4, version: "0.9", price: 4.99, formattedPrice: "$4.99"),
            ], at: 30)
        let (entries, next) = HistoryDiff.compare(roster, with: baseline, hostTrackId: nil)
        #expect(entries.map(\.kind) == [.updated, .price, .added, .removed])
        #expect(entries.map(\.id) == [1, 3, 4, 2])
        #expect(entries.map(\.serial) == [42, 43, 44, 45])
        #expect(entries.allSatisfy { $0.at == roster.fetchedAt })
        let updated = try #require(entries.first)
        #expect(updated.version == "1.1")
        #expect(updated.versionDate == "2026-12-01T08:00:00Z")
        #expect(updated.releaseNotes == "Bug fixes")
        #expect(entries[1].formattedPrice == "$0.99")
        #expect(entries[1].previousFormattedPrice == "$1.99")
        #expect(entries[2].version == "0.9" && entries[2].formattedPrice == "$4.99")
        #expect(entries[3].name == "App 2", "a removed app is shown as it was last seen")
        #expect(next.lastSerial == 45)
        #expect(Set(next.apps.keys) == [1, 3, 4])
        #expect(next.apps[3]?.price == 0.99)
    }

    @Test("a version and a price change of one app are two entries; a price label alone is not a change")
    func versionAndPrice() {
        let baseline = S.baseline(S.roster([S.app(1, price: 0, formattedPrice: "Free")]))
        let both = HistoryDiff.compare(
            S.roster([S.app(1, version: "2.0", price: 1.99, formattedPrice: "$1.99")]), with: baseline,
            hostTrackId: nil)
        #expect(both.entries.map(\.kind) == [.updated, .price])
        let label = HistoryDiff.compare(
            S.roster([S.app(1, price: 0, formattedPrice: "Gratis")]), with: baseline, hostTrackId: nil)
        #expect(label.entries.isEmpty)
    }

    @Test("the developer's name is kept in the baseline, and an unnamed roster keeps the name before it")
    func artistName() {
        var named = S.roster([S.app(1)])
        named.artistName = "Example Labs"
        let baseline = S.baseline(named)
        #expect(baseline.artistName == "Example Labs")
        #expect(
            HistoryDiff.compare(S.roster([S.app(1)], at: 5), with: baseline, hostTrackId: nil).baseline.artistName
                == "Example Labs")
    }

    @Test("a transfer to another developer starts a new baseline and records nothing, keeping the serial")
    func transfer() {
        var baseline = S.baseline(S.roster([S.app(1), S.app(2)]))
        baseline.lastSerial = 7
        let other = S.roster([S.app(8), S.app(9)], artist: 900_000_002, at: 10)
        let (entries, next) = HistoryDiff.compare(other, with: baseline, hostTrackId: nil)
        #expect(entries.isEmpty)
        #expect(next.artistId == 900_000_002)
        #expect(Set(next.apps.keys) == [8, 9])
        #expect(next.lastSerial == 7)
    }

    @Test("a dropped row keeps its baseline: neither removed now nor added when it is usable again")
    func droppedRows() {
        let baseline = S.baseline(S.roster([S.app(1), S.app(2, version: "3.0")]))
        let dropped = HistoryDiff.compare(S.roster([S.app(1)], at: 5, dropped: [2]), with: baseline, hostTrackId: nil)
        #expect(dropped.entries.isEmpty)
        #expect(dropped.baseline.apps[2]?.version == "3.0")
        let back = HistoryDiff.compare(
            S.roster([S.app(1), S.app(2, version: "3.0")], at: 10), with: dropped.baseline, hostTrackId: nil)
        #expect(back.entries.isEmpty)
        let gone = HistoryDiff.compare(S.roster([S.app(1)], at: 15), with: dropped.baseline, hostTrackId: nil)
        #expect(gone.entries.map(\.kind) == [.removed], "once the row is gone for good it is a removal")
    }

    @Test("the host app's own changes are never recorded, nor kept in the baseline")
    func hostApp() {
        let baseline = S.baseline(S.roster([S.app(S.host), S.app(1)]), host: S.host)
        #expect(baseline.apps[S.host] == nil)
        let roster = S.roster([S.app(S.host, version: "9.0", price: 9.99), S.app(1)], at: 5)
        #expect(HistoryDiff.compare(roster, with: baseline, hostTrackId: S.host).entries.isEmpty)
        let gone = S.roster([S.app(1)], at: 6)
        #expect(HistoryDiff.compare(gone, with: baseline, hostTrackId: S.host).entries.isEmpty)
    }

    @Test("200 apps that all change at once are one refresh's 200 entries, and the next identical refresh none")
    func twoHundred() {
        let ids = Array(1...200)
        let baseline = S.baseline(S.roster(ids.map { S.app($0) }))
        let bumped = S.roster(ids.map { S.app($0, version: "2.0") }, at: 60)
        let first = HistoryDiff.compare(bumped, with: baseline, hostTrackId: nil)
        #expect(first.entries.count == 200)
        #expect(first.entries.allSatisfy { $0.kind == .updated })
        #expect(
            HistoryDiff.compare(S.roster(bumped.apps, at: 120), with: first.baseline, hostTrackId: nil).entries.isEmpty)
    }

    @Test("release notes are capped at 4 KiB on a character boundary and marked with an ellipsis")
    func notesCap() throws {
        let long = String(repeating: "é", count: 3000)  // 6000 bytes of two-byte characters
        let capped = try #require(ReleaseNotes.capped(long))
        #expect(capped.utf8.count <= ReleaseNotes.maximumBytes)
        #expect(capped.utf8.count > ReleaseNotes.maximumBytes - 8)
        #expect(capped.hasSuffix("…"))
        #expect(capped.dropLast().allSatisfy { $0 == "é" })
        let family = String(repeating: "👨‍👩‍👧", count: 400)  // one grapheme of 18 bytes, 7200 bytes
        let cut = try #require(ReleaseNotes.capped(family))
        #expect(cut.dropLast().allSatisfy { $0 == "👨‍👩‍👧" }, "never cuts inside a character")
        #expect(ReleaseNotes.capped("short") == "short")
        #expect(ReleaseNotes.capped("") == nil)
        let app = S.app(1, version: "2", notes: long)
        #expect(app.releaseNotes == capped)
    }

    @Test("a baseline behind the log catches up from its entries, so none is detected twice")
    func catchUp() {
        let baseline = S.baseline(S.roster([S.app(1), S.app(2, price: 1, formattedPrice: "$1")]))
        let roster = S.roster([S.app(1, version: "2"), S.app(2, price: 2, formattedPrice: "$2"), S.app(3)], at: 5)
        let (entries, expected) = HistoryDiff.compare(roster, with: baseline, hostTrackId: nil)
        let caughtUp = baseline.applying(entries)
        #expect(caughtUp.apps == expected.apps)
        #expect(caughtUp.lastSerial == expected.lastSerial)
        #expect(HistoryDiff.compare(roster, with: caughtUp, hostTrackId: nil).entries.isEmpty)
    }

    @Test(
        "the baseline keeps each app's current release, the host's too; a row without one keeps it while its version stays"
    )
    func releases() {
        let first = S.roster([
            S.app(1, notes: "First", date: "2026-12-01T08:00:00Z"), S.app(S.host, notes: "Host", date: nil),
        ])
        let baseline = S.baseline(first, host: S.host)
        #expect(baseline.apps[S.host] == nil)
        #expect(
            baseline.releases?[1] == .init(version: "1.0", versionDate: "2026-12-01T08:00:00Z", releaseNotes: "First"))
        #expect(baseline.releases?[S.host]?.releaseNotes == "Host")
        // A roster read without its raw body tells no release: the same version keeps the one kept.
        let (_, same) = HistoryDiff.compare(
            S.roster([S.app(1), S.app(S.host)], at: 1), with: baseline, hostTrackId: S.host)
        #expect(same.releases == baseline.releases)
        // A new version without details has none: the old version's notes are not shown for it.
        let (_, newer) = HistoryDiff.compare(
            S.roster([S.app(1, version: "2.0"), S.app(S.host)], at: 2), with: baseline, hostTrackId: S.host)
        #expect(newer.releases?[1] == nil && newer.releases?[S.host]?.releaseNotes == "Host")
    }
}
