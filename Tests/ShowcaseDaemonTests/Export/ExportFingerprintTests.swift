import Foundation
import Testing

@testable import ShowcaseDaemon

/// The named inputs of an exported roster's files, as the writer compares them.
@Suite("Export fingerprint")
struct ExportFingerprintTests {
    static let base = ExportFingerprint(
        revision: 3, fetchedAt: Date(timeIntervalSince1970: 1_700_000_000.25), resultCount: 12, artistId: 41,
        hostAppId: 1_641_000_101, settingsEpoch: 2, historyLatest: 7,
        historyBaseline: Date(timeIntervalSince1970: 1_600_000_000))

    @Test("each named input changes the values the writer compares")
    func everyInputCounts() {
        let changes: [(String, (inout ExportFingerprint) -> Void)] = [
            ("revision", { $0.revision += 1 }), ("fetchedAt", { $0.fetchedAt += 0.001 }),
            ("resultCount", { $0.resultCount += 1 }), ("artistId", { $0.artistId += 1 }),
            ("hostAppId", { $0.hostAppId += 1 }), ("settingsEpoch", { $0.settingsEpoch += 1 }),
            ("historyLatest", { $0.historyLatest += 1 }), ("historyBaseline", { $0.historyBaseline = nil }),
        ]
        for (name, change) in changes {
            var other = Self.base
            change(&other)
            #expect(other.values != Self.base.values, "\(name)")
        }
        #expect(Self.base.values == Self.base.values)
    }

    @Test(
        "a time from disk too far out for an Int is clamped, never a trap",
        arguments: [
            (1e300, Int.max), (-1e300, Int.min), (Double.infinity, Int.max), (-Double.infinity, Int.min),
            (Double.nan, 0), (1_700_000_000.25, 1_700_000_000_250),
        ] as [(Double, Int)])
    func clampedMilliseconds(seconds: Double, milliseconds: Int) {
        #expect(ExportFingerprint.milliseconds(Date(timeIntervalSince1970: seconds)) == milliseconds)
    }
}
