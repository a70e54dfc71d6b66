import FoundationEssentials
import Locking
import ShowcaseCore

/// The one upstream request budget (`lookup.rate_limit`) that every fetch — scheduled refresh, on-demand
/// storefront, `Admin.Refresh` — passes through, so nothing can exceed Apple's per-IP limit.
///
/// Requests are spaced evenly (one every `period / count`, no burst), which keeps any window of length
/// `period` at or under `count` requests. After a 403/429 the whole limiter pauses until the backoff
/// ends (honouring `Retry-After`), because throttling is per IP, not per storefront. The spacing is read from
/// the current configuration at each request, so a reload changes the budget with nothing to update by hand;
/// a slot already granted keeps the spacing it was granted under.
final class RateLimiter: Sendable {
    private struct State {
        var nextSlot: ContinuousClock.Instant
        var pausedUntil: ContinuousClock.Instant
    }

    private let clock: any ShowcaseClock
    private let spacingSource: @Sendable () -> Duration
    private let state: Lock<State>

    /// A limiter on `clock` that spaces requests by what `spacing` answers at each request.
    init(clock: any ShowcaseClock, spacing: @escaping @Sendable () -> Duration) {
        self.clock = clock
        self.spacingSource = spacing
        let now = clock.instant
        state = Lock(State(nextSlot: now, pausedUntil: now))
    }

    /// The spacing `count` requests per `period` give (for `20/min`: 3 s).
    static func spacing(count: Int, per period: Duration) -> Duration { period / max(count, 1) }

    /// Time between two requests.
    var spacing: Duration { spacingSource() }

    /// Waits for a slot and takes it. Cancellation ends the wait without taking one.
    func acquire() async throws {
        while true {
            let now = clock.instant
            let spacing = self.spacing
            let wait: Duration? = state.withLock { state in
                let earliest = max(state.nextSlot, state.pausedUntil)
                if earliest <= now {
                    state.nextSlot = now + spacing
                    return nil
                }
                return earliest - now
            }
            guard let wait else { return }
            try await clock.sleep(until: now + wait)
        }
    }

    /// Waits until a slot would be free, without taking it: lets the scheduler pick the most urgent job
    /// at the last moment, so a query that started waiting meanwhile goes first.
    func waitUntilAvailable() async throws {
        while true {
            let now = clock.instant
            let earliest = state.withLock { max($0.nextSlot, $0.pausedUntil) }
            if earliest <= now { return }
            try await clock.sleep(until: earliest)
        }
    }

    /// When the next request may go: the next free slot, or the end of a throttle pause if that is later (a
    /// moment already past when one may go at once). A one-shot run stops before a wait that ends past its
    /// `--max-wait`.
    var availableAt: ContinuousClock.Instant { state.withLock { max($0.nextSlot, $0.pausedUntil) } }

    /// The end of the throttle pause in force, nil when none is.
    var pause: ContinuousClock.Instant? {
        let until = state.withLock { $0.pausedUntil }
        return until > clock.instant ? until : nil
    }

    /// Pauses every upstream request for `duration` (after 403/429; `Retry-After` when given).
    /// A shorter pause never shortens a longer one already in force.
    func backOff(for duration: Duration) {
        let until = clock.instant + duration
        state.withLock { $0.pausedUntil = max($0.pausedUntil, until) }
    }
}
