import FoundationEssentials
import ShowcaseCore

/// Runs the refreshes the ``RefreshQueue`` in the daemon's state decides on, one at a time, within the shared rate
/// limiter; the ``Refresher`` decides *how* an edition is refreshed.
///
/// The queue itself is a part of ``DaemonState`` (any transition may change it: a query for a storefront not yet
/// warm, a reload); the actor keeps what a value cannot: the worker loop (``run()``, a child task of the daemon's
/// lifecycle), the callers waiting for a refresh to finish (``refreshNow(_:startingAfterCall:)`` — concurrent
/// callers share one fetch), and the sleep between jobs, which any change to the queue cuts short (``wake()``).
/// Just before each refresh it picks the most urgent due job again, so a query that started waiting meanwhile
/// goes first.
actor RefreshScheduler {
    private let state: StateOwner
    private var waiters: [StorefrontEdition: [CheckedContinuation<RefreshOutcome, Never>]] = [:]
    /// Callers of ``refreshNow(_:startingAfterCall:)`` that arrived while the edition's refresh ran and want a
    /// fetch that starts after their call: they wait for the next refresh.
    private var nextWaiters: [StorefrontEdition: [CheckedContinuation<RefreshOutcome, Never>]] = [:]
    private let limiter: RateLimiter
    private let refresh: @Sendable (StorefrontEdition) async -> RefreshOutcome
    private var sleeper: CheckedContinuation<Void, Never>?
    private var sleepTimer: Task<Void, Never>?
    /// A wake that came while the worker was not asleep: its next sleep ends at once, so no change is missed.
    private var wakePending = false
    private var stopped = false

    /// A scheduler for the queue in `state`, waiting until `limiter` has room before each refresh and running
    /// `refresh` to do it. Idle until ``run()``.
    init(
        state: StateOwner, limiter: RateLimiter,
        refresh: @escaping @Sendable (StorefrontEdition) async -> RefreshOutcome
    ) {
        self.state = state
        self.limiter = limiter
        self.refresh = refresh
    }

    /// The queue changed: the worker looks again. `forgotten` editions left the queue: their callers are told
    /// they are not warm (unless a request queued them again meanwhile: they get that refresh's outcome).
    nonisolated func queueChanged(forgotten: [StorefrontEdition]) {
        Task { await self.queueChangedNow(forgotten: forgotten) }
    }

    private func queueChangedNow(forgotten: [StorefrontEdition]) {
        for edition in forgotten where !state.read({ $0.queue.editions.contains(edition) }) {
            for waiter in waiters.removeValue(forKey: edition) ?? [] { waiter.resume(returning: .failed(.notWarm)) }
        }
        wake()
    }

    /// Refreshes `edition` as soon as the rate limiter allows (keeping it warm from then on) and returns the
    /// outcome. Concurrent callers share one fetch. With `startingAfterCall` (`Admin.Refresh`), a refresh already
    /// in progress does not count — its upstream answer may predate the call — and the caller waits for one more,
    /// which callers arriving meanwhile share; without it (a query waiting on a warming roster), the refresh in
    /// progress is the one waited for.
    func refreshNow(_ edition: StorefrontEdition, startingAfterCall: Bool = false) async -> RefreshOutcome {
        guard !stopped else { return .failed(.shuttingDown) }
        let running = state.update { state, _ in state.requestRefresh(edition, startingAfterCall: startingAfterCall) }
        let next = startingAfterCall && running
        wake()
        return await withCheckedContinuation { continuation in
            if next {
                nextWaiters[edition, default: []].append(continuation)
            } else {
                waiters[edition, default: []].append(continuation)
            }
        }
    }

    // MARK: Worker

    /// Refreshes due editions until the task is cancelled, then lets the refresh in progress (and its cache
    /// write) finish and answers every caller still waiting with "shutting down".
    func run() async {
        let clock = state.clock
        while !Task.isCancelled {
            switch state.read({ $0.nextJob(at: clock.instant) }) {
            case .idle:
                await sleep(until: nil)
                continue
            case .sleep(let deadline):
                await sleep(until: deadline)
                continue
            case .run: break
            }
            do { try await limiter.waitUntilAvailable() } catch { break }
            // Re-pick: something more urgent may have arrived while waiting for the limiter.
            let job = state.update { state, _ in
                let job = state.nextJob(at: clock.instant)
                guard case .run(let edition) = job else { return (job, StateChange.none) }
                return (job, state.beginRefresh(edition))
            }
            guard case .run(let edition) = job else { continue }
            let outcome = await refresh(edition)
            let now = state.moment
            let urgent = state.update { state, draw in state.finishRefresh(edition, outcome, at: now, unit: draw()) }
            for waiter in waiters.removeValue(forKey: edition) ?? [] { waiter.resume(returning: outcome) }
            // Those who asked while it ran wait for the refresh the queue now holds urgent; if it holds none (the
            // edition was forgotten meanwhile), this outcome is the last there will be.
            if let next = nextWaiters.removeValue(forKey: edition) {
                if urgent {
                    waiters[edition, default: []] += next
                } else {
                    for waiter in next { waiter.resume(returning: outcome) }
                }
            }
        }
        stopped = true
        let pending = Array(waiters.values.joined()) + Array(nextWaiters.values.joined())
        waiters = [:]
        nextWaiters = [:]
        for waiter in pending { waiter.resume(returning: .failed(.shuttingDown)) }
    }

    private func sleep(until deadline: ContinuousClock.Instant?) async {
        if wakePending {
            wakePending = false
            return
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if Task.isCancelled {
                    continuation.resume()
                    return
                }
                sleeper = continuation
                if let deadline {
                    let clock = state.clock
                    sleepTimer = Task {
                        try? await clock.sleep(until: deadline)
                        if !Task.isCancelled { self.wake() }
                    }
                }
            }
        } onCancel: {
            Task { await self.wake() }
        }
    }

    private func wake() {
        sleepTimer?.cancel()
        sleepTimer = nil
        guard let sleeper else {
            wakePending = true
            return
        }
        self.sleeper = nil
        sleeper.resume()
    }
}
