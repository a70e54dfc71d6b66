import FoundationEssentials

/// Whether a cached roster is young enough to serve without refreshing first.
public enum Freshness: String, Sendable, Hashable, Codable {
    /// Younger than `refresh.interval`.
    case fresh
    /// Older than the lifetime — or fetched "in the future", which means the clock or the file cannot be
    /// trusted, so the roster is refreshed rather than served as fresh for an unbounded time.
    case stale

    /// The freshness of a roster fetched at `fetchedAt`, seen at `now`, for a `lifetime` (`refresh.interval`).
    public init(fetchedAt: Date, now: Date, lifetime: Duration) {
        let age = now.timeIntervalSince(fetchedAt)
        self = age >= 0 && age < lifetime.seconds ? .fresh : .stale
    }
}
