import FoundationEssentials
import ShowcaseCore

/// Runs the refreshes a ``RefreshQueue`` decides on, one at a time, within the shared rate limiter; the
/// ``Refresher`` decides *how* an edition is refreshed.
///
/// The actor keeps what a value cannot: the worker loop (``run()``, a child task of the daemon's lifecycle), the
/// callers waiting for a refresh to finish (``refreshNow(_:)`` — concurrent callers share one fetch), and the
/// sleep between jobs, which any change to the queue cuts short. Just before each refresh it picks the most
/// urgent due job again, so a query that started waiting meanwhile goes first.
///
/// The schedule (`refresh.*`) and the limiter's spacing are read from the current configuration at each step,
/// never copied, so a reload takes effect without anyone updating the scheduler by hand.
actor RefreshScheduler {
    private var queue = RefreshQueue()
    private var waiters: [StorefrontEdition: [CheckedContinuation<RefreshOutcome, Never>]] = [:]
    /// Callers of ``refreshNow(_:startingAfterCall:)`` that arrived while the edition's refresh ran and want a
    /// fetch that starts after their call: they wait for the next refresh.
    private var nextWaiters: [StorefrontEdition: [CheckedContinuation<RefreshOutcome, Never>]] = [:]
    private let clock: any ShowcaseClock
    private let limiter: RateLimiter
    private let settings: @Sendable () -> RefreshSchedule
    private let jitter: @Sendable () -> Double
    private let refresh: @Sendable (StorefrontEdition) async -> RefreshOutcome
    private var sleeper: CheckedContinuation<Void, Never>?
    private var sleepTimer: Task<Void, Never>?
    private var stopped = false

    /// A scheduler that reads the current schedule from `settings`, draws jitter from `jitter` (0...1), waits until
    /// `limiter` has room before each refresh, and runs `refresh` to do it. Idle until ``run()``.
    init(
        clock: any ShowcaseClock, limiter: RateLimiter, settings: @escaping @Sendable () -> RefreshSchedule,
        jitter: @escaping @Sendable () -> Double = { .random(in: 0...1) },
        refresh: @escaping @Sendable (StorefrontEdition) async -> RefreshOutcome
    ) {
        self.clock = clock
        self.limiter = limiter
        self.settings = settings
        self.jitter = jitter
        self.refresh = refresh
    }

    // MARK: The queue's operations

    /// Keeps `edition` warm. `fetchedAt` is its cached roster's fetch time (nil when missing; a stale one is
    /// due at once); `position` spreads missing and stale ones one limiter slot apart.
    func keepWarm(_ edition: StorefrontEdition, fetchedAt: Date?, position: Int = 0) {
        queue.keepWarm(
            edition, fetchedAt: fetchedAt, position: position, at: RefreshQueue.Moment(clock), schedule: settings(),
            spacing: limiter.spacing, unit: jitter())
        wake()
    }

    /// Stops refreshing `edition` (its cache stays). Waiters get their answer when a running refresh ends.
    func forget(_ edition: StorefrontEdition) {
        guard queue.forget(edition) else { return }
        for waiter in waiters.removeValue(forKey: edition) ?? [] { waiter.resume(returning: .failed(.notWarm)) }
    }

    /// Moves `edition` to the front of the queue (a query is waiting on it).
    func prioritize(_ edition: StorefrontEdition) {
        queue.prioritize(edition)
        wake()
    }

    /// Brings `editions` forward to now, one limiter slot apart (a new host must be resolved soon).
    func expedite(_ editions: [StorefrontEdition]) {
        queue.expedite(editions, at: clock.instant, spacing: limiter.spacing)
        wake()
    }

    /// Moves every refresh that follows a fetch to match the current schedule (after a reload changed it).
    func reschedule() {
        queue.reschedule(at: RefreshQueue.Moment(clock), schedule: settings())
        wake()
    }

    /// Refreshes `edition` as soon as the rate limiter allows (adding it to the warm set if needed) and
    /// returns the outcome. Concurrent callers share one fetch. With `startingAfterCall` (`Admin.Refresh`), a
    /// refresh already in progress does not count — its upstream answer may predate the call — and the caller
    /// waits for one more, which callers arriving meanwhile share; without it (a query waiting on a warming
    /// roster), the refresh in progress is the one waited for.
    func refreshNow(_ edition: StorefrontEdition, startingAfterCall: Bool = false) async -> RefreshOutcome {
        guard !stopped else { return .failed(.shuttingDown) }
        let next = startingAfterCall && queue.isRunning(edition)
        if startingAfterCall { queue.requestAfterRunning(edition) } else { queue.requestNow(edition) }
        wake()
        return await withCheckedContinuation { continuation in
            if next {
                nextWaiters[edition, default: []].append(continuation)
            } else {
                waiters[edition, default: []].append(continuation)
            }
        }
    }

    /// Every warm edition's next refresh, as wall-clock time, for `Admin.Status`.
    func schedule() -> [StorefrontEdition: Date] {
        let now = RefreshQueue.Moment(clock)
        var result: [StorefrontEdition: Date] = [:]
        // A throttle pause holds every request back: no refresh happens before it ends.
        let pauseEnd = limiter.pause.map { clock.date(at: $0) }
        for edition in queue.editions {
            guard let next = queue.nextRefresh(edition, at: now) else { continue }
            result[edition] = pauseEnd.map { max($0, next) } ?? next
        }
        return result
    }

    // MARK: Worker

    /// Refreshes due editions until the task is cancelled, then lets the refresh in progress (and its cache
    /// write) finish and answers every caller still waiting with "shutting down".
    func run() async {
        while !Task.isCancelled {
            switch queue.nextJob(at: clock.instant) {
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
            guard case .run(let edition) = queue.nextJob(at: clock.instant) else { continue }
            queue.begin(edition)
            let outcome = await refresh(edition)
            queue.finish(edition, outcome, at: RefreshQueue.Moment(clock), schedule: settings(), unit: jitter())
            for waiter in waiters.removeValue(forKey: edition) ?? [] { waiter.resume(returning: outcome) }
            // Those who asked while it ran wait for the refresh the queue now holds urgent; if it holds none (the
            // edition was forgotten meanwhile), this outcome is the last there will be.
            if let next = nextWaiters.removeValue(forKey: edition) {
                if queue.isUrgent(edition) {
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
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if Task.isCancelled {
                    continuation.resume()
                    return
                }
                sleeper = continuation
                if let deadline {
                    let clock = self.clock
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
        if let sleeper {
            self.sleeper = nil
            sleeper.resume()
        }
    }
}
