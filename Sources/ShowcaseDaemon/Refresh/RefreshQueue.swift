import FoundationEssentials
import ShowcaseCore

/// Which warm roster edition (a storefront, or one language of a multilingual storefront) is refreshed next, and
/// when: the scheduler's whole decision, as a value. Each edition is its own entry with its own share of the
/// request budget, so a failing French roster of `ca` retries without refetching the English one.
///
/// - A roster cached at startup is refreshed at the end of its jittered lifetime; a missing or stale one is
///   queued one rate-limiter slot after the previous one (`position`), never as a burst.
/// - After a success the next refresh is `refresh.interval` ± `refresh.jitter`; after a failure it retries from
///   `refresh.retry`, doubling per consecutive failure up to the interval, never before a `Retry-After`.
/// - An urgent entry (a query waits on it, or a refresh was asked for) goes before every waiting one.
/// - An edition forgotten while its refresh runs is dropped when that refresh finishes.
///
/// Every operation takes the time and the schedule it needs as arguments, so the queue holds no clock and no
/// copy of the configuration: a reload hands the new schedule to ``reschedule(at:schedule:)`` and to every
/// later call. It is a part of ``DaemonState``; the ``RefreshScheduler`` actor keeps the worker loop and the
/// waiting callers around it.
struct RefreshQueue: Sendable {
    /// Where one edition stands.
    enum State: Sendable, Equatable {
        /// Due at an instant.
        case waiting(due: ContinuousClock.Instant)
        /// Due now, before every waiting entry.
        case urgent
        /// Its refresh is in progress.
        case running
        /// Its refresh is in progress, and it left the warm set meanwhile: dropped when the refresh finishes.
        case runningForgotten
    }

    /// The moment an operation happens, on both clocks: wall time is what rosters are stamped with, the
    /// monotonic instant is what due times are measured on.
    struct Moment: Sendable, Equatable {
        /// Wall-clock time.
        var date: Date
        /// Monotonic time.
        var instant: ContinuousClock.Instant

        /// The moment `clock` reads now.
        init(_ clock: any ShowcaseClock) { self.init(date: clock.now, instant: clock.instant) }

        /// A moment given explicitly (tests).
        init(date: Date, instant: ContinuousClock.Instant) {
            self.date = date
            self.instant = instant
        }
    }

    /// One edition's place in the queue.
    struct Entry: Sendable, Equatable {
        /// Where it stands.
        var state: State
        /// Consecutive failed refreshes (0 after a success).
        var failures = 0
        /// When the roster the current due time derives from was fetched, and the jitter drawn for it: a reload
        /// with another interval recomputes the due time from these. Nil while the next refresh is a first fetch
        /// or a retry.
        var fetchedAt: Date?
        /// The jitter draw (0...1) for `fetchedAt`.
        var unit = 0.5
        /// Asked for while its refresh ran, by a caller that wants a fetch starting after its call
        /// (``requestAfterRunning(_:)``): urgent again as soon as that refresh finishes.
        var rerun = false
    }

    /// What the worker should do next.
    enum Job: Sendable, Equatable {
        /// Refresh this edition now (after the rate limiter allows).
        case run(StorefrontEdition)
        /// Nothing is due before this instant.
        case sleep(until: ContinuousClock.Instant)
        /// Nothing is queued.
        case idle
    }

    private(set) var entries: [StorefrontEdition: Entry] = [:]

    /// The editions in the queue, including one forgotten while its refresh runs.
    var editions: Set<StorefrontEdition> { Set(entries.keys) }

    /// The editions kept warm: every queued one but those forgotten while their refresh runs.
    var warmEditions: [StorefrontEdition] {
        entries.compactMap { $0.value.state == .runningForgotten ? nil : $0.key }
    }

    /// Whether `edition` is kept warm (queued, and not forgotten while its refresh runs).
    func keepsWarm(_ edition: StorefrontEdition) -> Bool {
        guard let entry = entries[edition] else { return false }
        return entry.state != .runningForgotten
    }

    // MARK: Membership

    /// Keeps `edition` warm. `fetchedAt` is its cached roster's fetch time when that roster is fresh (nil when
    /// missing or stale); `position` spreads missing and stale ones `spacing` apart. Returns false when it was
    /// already queued (an edition forgotten while running is kept after all).
    @discardableResult
    mutating func keepWarm(
        _ edition: StorefrontEdition, fetchedAt: Date?, position: Int = 0, at now: Moment, schedule: RefreshSchedule,
        spacing: Duration, unit: Double
    ) -> Bool {
        if let entry = entries[edition] {
            if entry.state == .runningForgotten { entries[edition]?.state = .running }
            return false
        }
        var entry = Entry(state: .waiting(due: now.instant + spacing * max(position, 0)))
        if let fetchedAt {
            let delay = schedule.delayBeforeFirstRefresh(fetchedAt: fetchedAt, now: now.date, unit: unit)
            if delay > .zero {
                entry = Entry(state: .waiting(due: now.instant + delay), fetchedAt: fetchedAt, unit: unit)
            }
        }
        entries[edition] = entry
        return true
    }

    /// Stops refreshing `edition`. Returns true when it left the queue now (its waiting callers get their
    /// answer from the caller); false when it was not queued or is running (it leaves when the refresh ends).
    mutating func forget(_ edition: StorefrontEdition) -> Bool {
        guard let entry = entries[edition] else { return false }
        switch entry.state {
        case .running, .runningForgotten:
            entries[edition]?.state = .runningForgotten
            return false
        case .waiting, .urgent:
            entries[edition] = nil
            return true
        }
    }

    // MARK: Urgency

    /// Moves a waiting `edition` to the front (a query waits on it). Does nothing to a running or absent one.
    mutating func prioritize(_ edition: StorefrontEdition) {
        guard case .waiting = entries[edition]?.state else { return }
        entries[edition]?.state = .urgent
    }

    /// Brings waiting `editions` forward to `now`, `spacing` apart (a new host must be resolved soon).
    mutating func expedite(_ editions: [StorefrontEdition], at now: ContinuousClock.Instant, spacing: Duration) {
        var position = 0
        for edition in editions {
            guard let entry = entries[edition] else { continue }
            switch entry.state {
            case .running, .runningForgotten: continue
            case .urgent: break
            case .waiting(let due):
                entries[edition]?.state = .waiting(due: min(due, now + spacing * position))
                entries[edition]?.fetchedAt = nil
            }
            position += 1
        }
    }

    /// A caller wants `edition` refreshed as soon as possible (and will wait for the outcome): it is queued
    /// if absent, made urgent if waiting, and kept if running (the caller shares that refresh).
    mutating func requestNow(_ edition: StorefrontEdition) {
        guard let entry = entries[edition] else {
            entries[edition] = Entry(state: .urgent)
            return
        }
        switch entry.state {
        case .waiting: entries[edition]?.state = .urgent
        case .runningForgotten: entries[edition]?.state = .running
        case .urgent, .running: break
        }
    }

    /// Whether `edition` is due before every waiting entry (asked for, or a rerun after a refresh in progress).
    func isUrgent(_ edition: StorefrontEdition) -> Bool { entries[edition]?.state == .urgent }

    /// Whether `edition`'s refresh is in progress now.
    func isRunning(_ edition: StorefrontEdition) -> Bool {
        switch entries[edition]?.state {
        case .running?, .runningForgotten?: true
        default: false
        }
    }

    /// Asks for a refresh of `edition` that starts after now: for one whose refresh is in progress (an answer that
    /// may predate the request), another one as soon as it finishes; otherwise as ``requestNow(_:)``.
    mutating func requestAfterRunning(_ edition: StorefrontEdition) {
        guard isRunning(edition) else { return requestNow(edition) }
        entries[edition]?.state = .running
        entries[edition]?.rerun = true
    }

    // MARK: The worker's steps

    /// The most urgent job at `now`: an urgent entry first, else the earliest due (by code on a tie).
    func nextJob(at now: ContinuousClock.Instant) -> Job {
        var best: (edition: StorefrontEdition, due: ContinuousClock.Instant?)?
        for (edition, entry) in entries {
            let due: ContinuousClock.Instant?
            switch entry.state {
            case .running, .runningForgotten: continue
            case .urgent: due = nil
            case .waiting(let at): due = at
            }
            guard let current = best else {
                best = (edition, due)
                continue
            }
            switch (due, current.due) {
            case (nil, .some): best = (edition, due)
            case (.some, nil): continue
            case (nil, nil): if edition < current.edition { best = (edition, due) }
            case (.some(let a), .some(let b)):
                if a < b || (a == b && edition < current.edition) { best = (edition, due) }
            }
        }
        guard let best else { return .idle }
        guard let due = best.due, due > now else { return .run(best.edition) }
        return .sleep(until: due)
    }

    /// Marks `edition` as running.
    mutating func begin(_ edition: StorefrontEdition) {
        guard entries[edition] != nil else { return }
        entries[edition]?.state = .running
    }

    /// Records how `edition`'s refresh ended at `now` and queues the next one. Returns when it is next due, or
    /// nil when it was forgotten while running (it leaves the queue).
    @discardableResult
    mutating func finish(
        _ edition: StorefrontEdition, _ outcome: RefreshOutcome, at now: Moment, schedule: RefreshSchedule, unit: Double
    ) -> ContinuousClock.Instant? {
        guard var entry = entries[edition] else { return nil }
        if entry.state == .runningForgotten {
            entries[edition] = nil
            return nil
        }
        let delay: Duration
        switch outcome {
        case .updated:
            entry.failures = 0
            entry.fetchedAt = now.date
            entry.unit = unit
            delay = schedule.delayAfterSuccess(unit: unit)
        case .failed(let failure):
            entry.failures += 1
            entry.fetchedAt = nil
            delay = schedule.delayAfterFailure(
                entry.failures, error: failure.error ?? .connection(detail: failure.description))
        }
        let due = now.instant + delay
        entry.state = .waiting(due: due)
        if entry.rerun {
            // Someone asked while it ran: the next refresh is now (the rate limiter and any throttle pause still
            // decide when it may go out).
            entry.rerun = false
            entry.state = .urgent
        }
        entries[edition] = entry
        return entry.state == .urgent ? now.instant : due
    }

    /// Applies a reloaded schedule: every refresh that follows a fetch is moved to that fetch plus the new
    /// (jittered) interval, or to now when that has passed. Retries, first fetches and running refreshes keep
    /// their time (a running one is scheduled with the new values when it finishes).
    mutating func reschedule(at now: Moment, schedule: RefreshSchedule) {
        for (edition, entry) in entries {
            guard case .waiting = entry.state, let fetchedAt = entry.fetchedAt else { continue }
            let delay = schedule.delayBeforeFirstRefresh(fetchedAt: fetchedAt, now: now.date, unit: entry.unit)
            entries[edition]?.state = .waiting(due: now.instant + delay)
        }
    }

    // MARK: Reading

    /// When `edition` is next refreshed, as wall-clock time (`Admin.Status`): now when urgent or running.
    func nextRefresh(_ edition: StorefrontEdition, at now: Moment) -> Date? {
        guard let entry = entries[edition] else { return nil }
        guard case .waiting(let due) = entry.state else { return now.date }
        return now.date.addingTimeInterval(max(due - now.instant, .zero).seconds)
    }
}
