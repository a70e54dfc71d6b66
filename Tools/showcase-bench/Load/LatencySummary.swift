/// Percentiles of a set of latencies, by the nearest-rank method.
///
/// Nearest rank (the smallest sample with at least p% of samples at or below it) always reports a latency
/// that was actually observed, so a p99 of 0.9 ms means one call in a hundred really took 0.9 ms or longer,
/// never an interpolation between two samples.
struct LatencySummary: Equatable {
    let count: Int
    let p50: UInt64
    let p90: UInt64
    let p99: UInt64
    let max: UInt64
    let mean: UInt64

    /// Summarises `samples` (nanoseconds, any order). An empty set summarises to zeros.
    init(samples: [UInt64]) {
        let sorted = samples.sorted()
        count = sorted.count
        p50 = Self.percentile(sorted, 50)
        p90 = Self.percentile(sorted, 90)
        p99 = Self.percentile(sorted, 99)
        max = sorted.last ?? 0
        mean = sorted.isEmpty ? 0 : UInt64(sorted.reduce(0.0) { $0 + Double($1) } / Double(sorted.count))
    }

    /// The nearest-rank `percent` percentile of `sorted` (ascending): element ⌈p/100 · n⌉, 1-based.
    static func percentile(_ sorted: [UInt64], _ percent: Double) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((percent * Double(sorted.count) / 100).rounded(.up))
        return sorted[Swift.max(1, Swift.min(rank, sorted.count)) - 1]
    }
}
