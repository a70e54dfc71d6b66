import Foundation

/// When to refresh next: `refresh.interval` ± `refresh.jitter` after a success, `refresh.retry` doubling up to
/// the interval after failures, never sooner than a throttled answer's `Retry-After`.
///
/// Randomness is a parameter (`unit`, in 0...1) so the arithmetic is testable and the daemon decides the source.
public struct RefreshSchedule: Sendable, Equatable {
    /// `refresh.interval` (default 24h): freshness lifetime and refresh period.
    public var interval: Duration
    /// `refresh.jitter` (default 10%, as 0.1): spreads refreshes so they never arrive together.
    public var jitter: Double
    /// `refresh.retry` (default 5m): first retry delay after a failure.
    public var retry: Duration

    /// Creates a schedule.
    public init(interval: Duration = .seconds(86_400), jitter: Double = 0.1, retry: Duration = .seconds(300)) {
        self.interval = interval
        self.jitter = jitter
        self.retry = retry
    }

    /// The next refresh after a success at `now`: interval scaled by `1 + jitter * (2 * unit - 1)`.
    public func nextRefresh(afterSuccessAt now: Date, unit: Double) -> Date {
        let factor = 1 + jitter * (2 * min(max(unit, 0), 1) - 1)
        return now.addingTimeInterval(interval.seconds * factor)
    }

    /// The next attempt after the `failures`-th consecutive failure (1 = first) ending in `error` at `now`.
    public func nextAttempt(afterFailure failures: Int, error: LookupError, at now: Date) -> Date {
        var delay = retry.seconds * pow(2, Double(max(failures, 1) - 1))
        delay = min(delay, interval.seconds)
        if case .throttled(_, let retryAfter?) = error { delay = max(delay, retryAfter.seconds) }
        return now.addingTimeInterval(delay)
    }

    /// The refresh time for a roster fetched at `fetchedAt` loaded from cache at startup: its natural expiry,
    /// spread by jitter so 175 storefronts cached together do not all expire together. Past times mean "now".
    public func firstRefresh(fetchedAt: Date, now: Date, unit: Double) -> Date {
        if fetchedAt > now { return now }
        let due = nextRefresh(afterSuccessAt: fetchedAt, unit: unit)
        return max(due, now)
    }
}
