import Foundation
import Synchronization

/// The one upstream request budget (`lookup.rate_limit`) that every fetch — scheduled refresh, on-demand
/// storefront, `Admin.Refresh` — passes through, so nothing can exceed Apple's per-IP limit.
///
/// Requests are spaced evenly (one every `period / count`, no burst), which keeps any window of length
/// `period` at or under `count` requests. After a 403/429 the whole limiter pauses until the backoff
/// ends (honouring `Retry-After`), because throttling is per IP, not per storefront.
public final class RateLimiter: Sendable {
    private struct State {
        var spacing: Duration
        var nextSlot: ContinuousClock.Instant
        var pausedUntil: ContinuousClock.Instant
    }

    private let state: Mutex<State>

    /// `count` requests per `period` (for `20/min`: 20, 60 s).
    public init(count: Int, per period: Duration) {
        let now = ContinuousClock.now
        state = Mutex(State(spacing: period / max(count, 1), nextSlot: now, pausedUntil: now))
    }

    /// Time between two requests.
    public var spacing: Duration { state.withLock { $0.spacing } }

    /// Changes the budget (after a reload). The next slot keeps the spacing it was granted under.
    public func setRate(count: Int, per period: Duration) {
        state.withLock { $0.spacing = period / max(count, 1) }
    }

    /// Waits for a slot and takes it. Cancellation ends the wait without taking one.
    public func acquire() async throws {
        while true {
            let now = ContinuousClock.now
            let wait: Duration? = state.withLock { state in
                let earliest = max(state.nextSlot, state.pausedUntil)
                if earliest <= now {
                    state.nextSlot = now + state.spacing
                    return nil
                }
                return earliest - now
            }
            guard let wait else { return }
            try await Task.sleep(for: wait)
        }
    }

    /// Waits until a slot would be free, without taking it: lets the scheduler pick the most urgent job
    /// at the last moment, so a query that started waiting meanwhile goes first.
    public func waitUntilAvailable() async throws {
        while true {
            let now = ContinuousClock.now
            let earliest = state.withLock { max($0.nextSlot, $0.pausedUntil) }
            if earliest <= now { return }
            try await Task.sleep(for: earliest - now)
        }
    }

    /// Pauses every upstream request for `duration` (after 403/429; `Retry-After` when given).
    /// A shorter pause never shortens a longer one already in force.
    public func backOff(for duration: Duration) {
        let until = ContinuousClock.now + duration
        state.withLock { $0.pausedUntil = max($0.pausedUntil, until) }
    }

    /// When the current backoff ends, if one is in force.
    public var pausedUntil: ContinuousClock.Instant? {
        let until = state.withLock { $0.pausedUntil }
        return until > .now ? until : nil
    }
}
