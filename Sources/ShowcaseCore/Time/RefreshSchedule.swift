import FoundationEssentials

/// How long to wait before the next refresh: `refresh.interval` ± `refresh.jitter` after a success,
/// `refresh.retry` doubling up to the interval after failures, never sooner than a throttled answer's
/// `Retry-After` (itself capped at the interval, so an absurd header cannot silence a storefront for days).
///
/// Every answer is a delay (`Duration`) from the moment it is asked about; the caller adds it to its own clock.
/// Randomness is a parameter (`unit`, in 0...1) so the arithmetic is testable and the daemon decides the source.
public struct RefreshSchedule: Sendable, Equatable {
    /// `refresh.interval` (default 24h, at most 365d): freshness lifetime and refresh period.
    public var interval: Duration
    /// `refresh.jitter` (default 10%, as 0.1): spreads refreshes so they never arrive together.
    public var jitter: Double
    /// `refresh.retry` (default 5m, at most the interval): first retry delay after a failure.
    public var retry: Duration

    /// Creates a schedule.
    public init(interval: Duration = .seconds(86_400), jitter: Double = 0.1, retry: Duration = .seconds(300)) {
        self.interval = interval
        self.jitter = jitter
        self.retry = retry
    }

    /// The delay after a success: the interval scaled by `1 + jitter * (2 * unit - 1)`.
    public func delayAfterSuccess(unit: Double) -> Duration {
        let factor = 1 + jitter * (2 * min(max(unit, 0), 1) - 1)
        return .milliseconds(Int64((interval.seconds * factor * 1000).rounded()))
    }

    /// The delay after the `failures`-th consecutive failure (1 = first) ending in `error`.
    public func delayAfterFailure(_ failures: Int, error: LookupError) -> Duration {
        let doublings = min(max(failures, 1) - 1, 62)
        var delay = retry
        for _ in 0..<doublings where delay < interval { delay = delay * 2 }
        delay = min(delay, interval)
        if case .throttled(_, let retryAfter?) = error { delay = max(delay, min(retryAfter, interval)) }
        return delay
    }

    /// The delay before refreshing a roster fetched at `fetchedAt` (loaded from the cache), seen at `now`: what is
    /// left of its jittered lifetime, so 175 storefronts cached together do not all expire together. Zero when
    /// that has passed, and for a fetch time in the future (the clock or the file cannot be trusted).
    public func delayBeforeFirstRefresh(fetchedAt: Date, now: Date, unit: Double) -> Duration {
        let age = now.timeIntervalSince(fetchedAt)
        let lifetime = delayAfterSuccess(unit: unit)
        guard age >= 0, age < lifetime.seconds else { return .zero }
        return lifetime - .milliseconds(Int64((age * 1000).rounded(.down)))
    }
}
