/// How long each `Watch` subscriber waited for a new revision, counted from the refresh's cache write.
///
/// Times are wall-clock nanoseconds (`CLOCK_REALTIME`), because the cache write is known only by its file's
/// mtime. A delay can be negative if a subscriber's reply came before the file's mtime (the clocks are the same,
/// the order of the daemon's steps is not the bench's business); percentiles are nearest rank over the signed
/// delays, and a subscriber that never received the revision counts as missing, not as a number.
struct FanoutTiming: Equatable {
    /// Subscribers that received the new revision.
    let received: Int
    /// Subscribers that did not (within the probe's bound), or got an error instead.
    let missing: Int
    /// The first subscriber's delay: what passed before the daemon sent anything, apart from how long sending to
    /// all of them took.
    let first: Int64
    let p50: Int64
    let p99: Int64
    let max: Int64

    /// `receivedAt[i]` is when subscriber `i` read the new revision, nil if it never did.
    init(writtenAt: Int64, receivedAt: [Int64?]) {
        let delays = receivedAt.compactMap { $0.map { $0 &- writtenAt } }.sorted()
        received = delays.count
        missing = receivedAt.count - delays.count
        first = delays.first ?? 0
        p50 = Self.percentile(delays, 50)
        p99 = Self.percentile(delays, 99)
        max = delays.last ?? 0
    }

    /// Whether every subscriber received the revision and the p99 is within `bound` nanoseconds.
    func meets(bound: Int64) -> Bool { missing == 0 && received > 0 && p99 <= bound }

    private static func percentile(_ sorted: [Int64], _ percent: Int) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = (percent * sorted.count + 99) / 100
        return sorted[Swift.max(1, Swift.min(rank, sorted.count)) - 1]
    }
}
