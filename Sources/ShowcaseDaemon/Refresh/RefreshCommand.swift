import FoundationEssentials
import ShowcaseCore

/// `Admin.Refresh`: refreshes storefronts now, through the scheduler (so the rate limiter and every other caller
/// share the queue), and reports how each ended; a long throttle pause is answered at once. Built from the parts
/// it uses: the state, the clock, the scheduler, the upstream's rate limiter, and systemd's status line.
struct RefreshCommand: Sendable {
    /// The daemon's state and its one owner.
    let state: StateOwner
    /// The daemon's one clock.
    let clock: any ShowcaseClock
    /// Runs each refresh.
    let scheduler: RefreshScheduler
    /// The rate limiter whose throttle pause a refresh may not outwait.
    let limiter: RateLimiter
    /// Where systemd's status line goes after the refreshes.
    let notifier: SystemdNotifier
    /// systemd's `STATUS=` line as of now (``StatusReporter/statusLine()``).
    let statusLine: @Sendable () -> String

    /// Refreshes `requested` (every warm storefront when nil) as soon as the rate limiter allows, and reports
    /// how each ended: a storefront with several languages is refreshed in each, and fails when one of them does.
    /// A storefront not warm yet is kept warm from then on.
    func refresh(_ requested: Storefront?) async -> RefreshReport {
        let targets = requested.map { [$0] } ?? state.warm.sorted()
        let configuration = state.config.configuration
        let editions = targets.flatMap { configuration.editions(of: $0) }
        guard !targets.isEmpty else { return RefreshReport() }
        // A throttle pause longer than one request may take (a 429 with an absurd Retry-After) is answered at
        // once, naming its end: the refreshes run when it is over, and the caller is not left hanging till then.
        // That holds for a pause already in force and for one a 403/429 starts while these refreshes run.
        if let failure = longThrottlePause() {
            var report = RefreshReport()
            for storefront in targets { report.failed.append((storefront, failure)) }
            return report
        }
        // Each refresh runs on its own (it still happens after a long pause, as scheduled); a watcher ends the wait
        // for the ones left when a long pause starts meanwhile.
        let (results, sink) = AsyncStream.makeStream(of: RefreshProgress.self)
        let scheduler = self.scheduler
        var waiting: [Task<Void, Never>] = []
        for edition in editions {
            waiting.append(
                Task { sink.yield(.finished(edition, await scheduler.refreshNow(edition, startingAfterCall: true))) })
        }
        let watcher = Task { [clock] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: .milliseconds(100)) } catch { return }
                if let failure = self.longThrottlePause() {
                    sink.yield(.throttled(failure))
                    return
                }
            }
        }
        var outcomes: [StorefrontEdition: RefreshOutcome] = [:]
        for await progress in results {
            switch progress {
            case .finished(let edition, let outcome): outcomes[edition] = outcome
            case .throttled(let failure):
                for edition in editions where outcomes[edition] == nil { outcomes[edition] = .failed(failure) }
            }
            if outcomes.count == editions.count { break }
        }
        watcher.cancel()
        sink.finish()
        withExtendedLifetime(waiting) {}
        var report = RefreshReport()
        for storefront in targets.sorted() {
            let own = configuration.editions(of: storefront)
            var failed: (StorefrontEdition, RefreshFailure)?
            for edition in own {
                if failed == nil, case .failed(let failure) = outcomes[edition] { failed = (edition, failure) }
            }
            if let (edition, failure) = failed {
                // Which language failed matters to whoever reads it; a plain storefront's message is unchanged.
                let named = edition.language.map { RefreshFailure("\($0): \(failure)", error: failure.error) }
                report.failed.append((storefront, named ?? failure))
            } else if own.allSatisfy({ outcomes[$0] != nil }) {
                report.refreshed.append(storefront)
            }
        }
        notifier.status(statusLine())
        return report
    }

    /// The failure `Admin.Refresh` answers while upstream is paused for longer than `lookup.timeout`, naming when
    /// the pause ends; nil when there is no such pause.
    private func longThrottlePause() -> RefreshFailure? {
        let timeout = state.config.configuration.lookup.timeout
        guard let pause = limiter.pause, pause - clock.instant > timeout else { return nil }
        let until = RFC3339.seconds(clock.date(at: pause))
        return RefreshFailure("throttled until \(until) by the lookup service; the refresh runs then")
    }

    /// What `refresh(_:)` hears while it waits: one storefront's outcome, or a long throttle pause.
    private enum RefreshProgress: Sendable {
        case finished(StorefrontEdition, RefreshOutcome)
        case throttled(RefreshFailure)
    }
}
