import Testing

@testable import showcase_bench

@Suite("Latency percentiles")
struct LatencySummaryTests {
    @Test("reports nearest-rank percentiles that were actually observed")
    func nearestRank() {
        let summary = LatencySummary(samples: (1...100).reversed().map { UInt64($0) })
        #expect(summary.count == 100)
        #expect(summary.p50 == 50)
        #expect(summary.p90 == 90)
        #expect(summary.p99 == 99)
        #expect(summary.max == 100)
        #expect(summary.mean == 50)
    }

    @Test("rounds the rank up, so a p99 of few samples is the largest rather than an interpolation")
    func smallSets() {
        let summary = LatencySummary(samples: [5, 1, 9])
        #expect(summary.p50 == 5)
        #expect(summary.p99 == 9)
        #expect(LatencySummary.percentile([7], 1) == 7)
    }

    @Test("summarises no samples as zeros instead of trapping")
    func empty() {
        let summary = LatencySummary(samples: [])
        #expect(summary.count == 0)
        #expect(summary.p99 == 0)
        #expect(summary.max == 0)
    }
}
