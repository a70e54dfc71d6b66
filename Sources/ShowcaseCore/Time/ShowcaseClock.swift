import FoundationEssentials

/// The one source of time for freshness and scheduling: wall-clock time for what is stored and shown (a roster's
/// fetch time, `nextRefreshAt`), monotonic instants for waiting (which must not jump when the wall clock is
/// set), and sleeping until an instant. The daemon takes one and hands it down; tests pass a manual clock and
/// move it by hand, so "fresh, then stale a day later" is checked without waiting a day.
public protocol ShowcaseClock: Sendable {
    /// The current wall-clock time.
    var now: Date { get }
    /// The current monotonic instant.
    var instant: ContinuousClock.Instant { get }
    /// Suspends until `deadline` has passed on this clock; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension ShowcaseClock {
    /// Suspends for `duration` on this clock.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: instant + duration)
    }

    /// The wall-clock time at which the monotonic `deadline` falls, as shown to operators (`nextRefreshAt`).
    public func date(at deadline: ContinuousClock.Instant) -> Date {
        now.addingTimeInterval((deadline - instant).seconds)
    }
}

/// The real clock: `Date()` and `ContinuousClock`.
public struct SystemClock: ShowcaseClock {
    /// Creates the system clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }

    /// `ContinuousClock.now`.
    public var instant: ContinuousClock.Instant { ContinuousClock.now }

    /// `Task.sleep(until:clock: .continuous)`.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }
}
