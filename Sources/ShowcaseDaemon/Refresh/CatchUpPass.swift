import ShowcaseCore

/// The refresh pass of `showcased --once` (SPEC §17): each due edition refreshed once, in order, one at a time,
/// by the daemon's own ``Refresher`` within its one ``RateLimiter`` — the same requests a daemon's warm makes, so
/// the same budget (S + H for a cold run) — with no queue, no jitter and no retry schedule, because nothing
/// stays running to retry later.
///
/// Waiting is what the run spends its time on, and `--max-wait` bounds it: the pass starts no refresh whose
/// request could only go after `deadline`, and when a throttle pause (a 403/429's `Retry-After`) reaches past
/// `deadline` it stops waiting at once — the refresh waiting on it ends as a transport failure, the rest are not
/// attempted — rather than sleeping until it is sure to be too late. A throttled refresh whose pause ends in time
/// is tried again after it (at most ``throttledRetries`` times), which is what honouring `Retry-After` means.
struct CatchUpPass: Sendable {
    /// The editions to refresh, in order.
    var editions: [StorefrontEdition]
    /// The last moment a request may be waited for.
    var deadline: ContinuousClock.Instant

    /// How many times one edition is tried again after a throttle whose pause ends before the deadline.
    static let throttledRetries = 3

    /// How the pass ended.
    struct Result: Sendable, Equatable {
        /// Each attempted edition's last outcome; an edition missing here was not attempted.
        var outcomes: [StorefrontEdition: RefreshOutcome] = [:]
        /// Whether it stopped before the end because waiting longer would pass the deadline.
        var stoppedWaiting = false
    }

    /// Runs the pass: `refresh` refreshes one edition (the daemon's ``Refresher``), `limiter` is the one its
    /// requests go through, `isDue` says just before each whether an edition still needs it (an earlier refresh
    /// may have made it fresh: a host resolved), and `finished` hears how many editions are done after each.
    func run(
        clock: any ShowcaseClock, limiter: RateLimiter,
        isDue: @escaping @Sendable (StorefrontEdition) -> Bool = { _ in true },
        refresh: @escaping @Sendable (StorefrontEdition) async -> RefreshOutcome,
        finished: @escaping @Sendable (Int) -> Void = { _ in }
    ) async -> Result {
        let pass = self
        return await withTaskGroup(of: Result?.self) { group in
            group.addTask {
                await pass.refreshAll(limiter: limiter, isDue: isDue, refresh: refresh, finished: finished)
            }
            group.addTask {
                await pass.watchPause(clock: clock, limiter: limiter)
                return nil
            }
            var result = Result()
            while let next = await group.next() {
                // Either the refreshes are done (the watcher is no longer needed) or the watcher saw a pause past
                // the deadline (the refresh waiting on it is cancelled and the pass returns what it has).
                if let next { result = next }
                group.cancelAll()
            }
            return result
        }
    }

    private func refreshAll(
        limiter: RateLimiter, isDue: @Sendable (StorefrontEdition) -> Bool,
        refresh: @Sendable (StorefrontEdition) async -> RefreshOutcome,
        finished: @Sendable (Int) -> Void
    ) async -> Result {
        var result = Result()
        var retries = 0
        var index = editions.startIndex
        while index < editions.endIndex {
            let edition = editions[index]
            guard retries > 0 || isDue(edition) else {
                index += 1
                finished(index)
                continue
            }
            if Task.isCancelled || limiter.availableAt > deadline {
                result.stoppedWaiting = true
                break
            }
            let outcome = await refresh(edition)
            result.outcomes[edition] = outcome
            if case .failed(let failure) = outcome, failure.error?.isThrottled == true, !Task.isCancelled,
                retries < Self.throttledRetries, limiter.availableAt <= deadline
            {
                retries += 1
                continue
            }
            retries = 0
            index += 1
            finished(index)
        }
        if Task.isCancelled { result.stoppedWaiting = true }
        return result
    }

    /// Returns once a throttle pause ends after the deadline (or when cancelled), checking every 50 ms.
    private func watchPause(clock: any ShowcaseClock, limiter: RateLimiter) async {
        while !Task.isCancelled {
            if let pause = limiter.pause, pause > deadline { return }
            do { try await clock.sleep(for: .milliseconds(50)) } catch { return }
        }
    }
}
