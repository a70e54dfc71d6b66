import Foundation
import ShowcaseCore

/// Decides *when* each warm storefront is refreshed; the roster store decides *how*.
///
/// - After a success the next refresh is `interval` ± `jitter`, so storefronts fetched together drift apart.
/// - After a failure it retries from `retry`, doubling per consecutive failure up to `interval`.
/// - Missing and stale rosters at startup or after a reload are queued one rate-limiter slot apart, never
///   as a burst.
/// - One worker runs refreshes one at a time; just before each it picks the most urgent due job, so a
///   query waiting on a warming roster (`prioritize`) or an on-demand storefront goes first.
/// - Callers that want a refresh to finish (`refreshNow`) share the one in flight or queued for that
///   storefront, so concurrent on-demand queries cause a single fetch.
public actor RefreshScheduler {
    private struct Entry {
        var due: ContinuousClock.Instant
        var failures = 0
        var urgent = false
        var running = false
        /// Removed from the warm set while its refresh was running: dropped when that refresh ends.
        var forgotten = false
        var waiters: [CheckedContinuation<RefreshOutcome, Never>] = []
    }

    private let limiter: RateLimiter
    private let refresh: @Sendable (Storefront) async -> RefreshOutcome
    private var timing: RefreshSchedule
    private var entries: [Storefront: Entry] = [:]
    private var worker: Task<Void, Never>?
    private var sleeper: CheckedContinuation<Void, Never>?
    private var sleepTimer: Task<Void, Never>?

    /// A scheduler that waits until `limiter` has room before each refresh and runs `refresh` to do it; idle until
    /// `start()`.
    public init(
        timing: RefreshSchedule, limiter: RateLimiter, refresh: @escaping @Sendable (Storefront) async -> RefreshOutcome
    ) {
        self.timing = timing
        self.limiter = limiter
        self.refresh = refresh
    }

    /// Starts the worker.
    public func start() {
        guard worker == nil else { return }
        worker = Task { await self.run() }
    }

    /// Stops the worker after the refresh in progress (its cache write included) has finished.
    public func stop() async {
        let task = worker
        worker = nil
        task?.cancel()
        wake()
        await task?.value
        for (storefront, entry) in entries where !entry.waiters.isEmpty {
            entries[storefront]?.waiters = []
            for waiter in entry.waiters { waiter.resume(returning: .failed(.shuttingDown)) }
        }
    }

    /// Applies reloaded timing; each storefront's next due time is computed with it, the current one is kept.
    public func setTiming(_ timing: RefreshSchedule) { self.timing = timing }

    /// The storefronts being kept warm.
    public var warm: Set<Storefront> { Set(entries.keys) }

    /// Keeps `storefront` warm. `fetchedAt` is the cached roster's fetch time (nil when missing);
    /// `position` spreads missing/stale ones one limiter slot apart.
    public func keepWarm(_ storefront: Storefront, fetchedAt: Date?, position: Int = 0) {
        guard entries[storefront] == nil else {
            entries[storefront]?.forgotten = false
            return
        }
        let now = ContinuousClock.now
        var due = now + limiter.spacing * position
        if let fetchedAt {
            let next = timing.firstRefresh(fetchedAt: fetchedAt, now: Date(), unit: .random(in: 0...1))
            let remaining = next.timeIntervalSinceNow
            if remaining > 0 { due = now + .milliseconds(Int64(remaining * 1000)) }
        }
        entries[storefront] = Entry(due: due)
        wake()
    }

    /// Stops refreshing `storefront` (its cache stays). Waiters get their answer when a running refresh ends.
    public func forget(_ storefront: Storefront) {
        guard let entry = entries[storefront] else { return }
        if entry.running {
            entries[storefront]?.forgotten = true
            return
        }
        entries[storefront] = nil
        for waiter in entry.waiters { waiter.resume(returning: .failed(.notWarm)) }
    }

    /// Moves `storefront` to the front of the queue (a query is waiting on it).
    public func prioritize(_ storefront: Storefront) {
        guard entries[storefront] != nil, entries[storefront]?.running == false else { return }
        entries[storefront]?.urgent = true
        wake()
    }

    /// Brings `storefronts` forward to now, one limiter slot apart (a new host must be resolved soon).
    public func expedite(_ storefronts: [Storefront]) {
        var position = 0
        for storefront in storefronts {
            guard var entry = entries[storefront], !entry.running else { continue }
            entry.due = min(entry.due, .now + limiter.spacing * position)
            entries[storefront] = entry
            position += 1
        }
        wake()
    }

    /// Refreshes `storefront` as soon as the rate limiter allows (adding it to the warm set if needed) and
    /// returns the outcome. Concurrent callers share one fetch.
    public func refreshNow(_ storefront: Storefront) async -> RefreshOutcome {
        if entries[storefront] == nil { entries[storefront] = Entry(due: .now) }
        entries[storefront]?.forgotten = false
        if entries[storefront]?.running == false { entries[storefront]?.urgent = true }
        wake()
        return await withCheckedContinuation { continuation in
            entries[storefront]?.waiters.append(continuation)
        }
    }

    /// When `storefront` is next due, as wall-clock time, for `Admin.Status`.
    public func nextRefresh(_ storefront: Storefront) -> Date? {
        guard let entry = entries[storefront] else { return nil }
        if entry.running || entry.urgent { return Date() }
        let wait = max(entry.due - .now, .zero)
        return Date().addingTimeInterval(wait.seconds)
    }

    /// Every storefront's next refresh at once.
    public func schedule() -> [Storefront: Date] {
        var result: [Storefront: Date] = [:]
        for storefront in entries.keys { result[storefront] = nextRefresh(storefront) }
        return result
    }

    // MARK: Worker

    private func run() async {
        while !Task.isCancelled {
            guard let next = nextJob() else {
                await sleep(until: nil)
                continue
            }
            if next.due > .now && !next.urgent {
                await sleep(until: next.due)
                continue
            }
            do { try await limiter.waitUntilAvailable() } catch { return }
            // Re-pick: something more urgent may have arrived while waiting for the limiter.
            guard let job = nextJob(), job.urgent || job.due <= .now else { continue }
            let storefront = job.storefront
            entries[storefront]?.running = true
            entries[storefront]?.urgent = false
            let outcome = await refresh(storefront)
            finish(storefront, outcome)
        }
    }

    private func nextJob() -> (storefront: Storefront, due: ContinuousClock.Instant, urgent: Bool)? {
        var best: (storefront: Storefront, due: ContinuousClock.Instant, urgent: Bool)?
        for (storefront, entry) in entries where !entry.running {
            let candidate = (storefront, entry.due, entry.urgent)
            guard let current = best else {
                best = candidate
                continue
            }
            if candidate.2 != current.urgent {
                if candidate.2 { best = candidate }
            } else if candidate.1 < current.due || (candidate.1 == current.due && storefront < current.storefront) {
                best = candidate
            }
        }
        return best
    }

    private func finish(_ storefront: Storefront, _ outcome: RefreshOutcome) {
        guard var entry = entries[storefront] else { return }
        let waiters = entry.waiters
        entry.waiters = []
        entry.running = false
        let next: Date
        switch outcome {
        case .updated:
            entry.failures = 0
            next = timing.nextRefresh(afterSuccessAt: Date(), unit: .random(in: 0...1))
        case .failed(let failure):
            entry.failures += 1
            next = timing.nextAttempt(
                afterFailure: entry.failures, error: failure.error ?? .connection(detail: failure.description),
                at: Date())
        }
        entry.due = .now + .milliseconds(Int64(max(next.timeIntervalSinceNow, 0) * 1000))
        entries[storefront] = entry.forgotten ? nil : entry
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    private func sleep(until deadline: ContinuousClock.Instant?) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if Task.isCancelled {
                continuation.resume()
                return
            }
            sleeper = continuation
            if let deadline {
                sleepTimer = Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    if !Task.isCancelled { self.wake() }
                }
            }
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

extension Duration {
    /// The duration in (fractional) seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
