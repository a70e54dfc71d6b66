import FoundationEssentials
import Locking
import ShowcaseConfig
import ShowcaseCore

/// The running daemon's services around its one state (``StateOwner``): the upstream, the refresh scheduler and
/// refresher, the exporter and the history. The Varlink methods ask it for domain values (a ``RosterView``, a
/// ``StatusReport``, a ``RefreshReport``, a reload's outcome) and only decode parameters and encode replies.
///
/// All time comes from the one injected ``ShowcaseClock``; every decision about the state is a transition of
/// ``DaemonState``, so a reload is one transition (the new snapshot and the warm-set changes it implies).
final class RosterService: Sendable {
    /// The daemon's state and its one owner.
    let state: StateOwner
    let upstream: Upstream
    let scheduler: RefreshScheduler
    /// How one edition is refreshed; the scheduler's worker runs it, and a one-shot run calls it directly.
    let refresher: Refresher
    let clock: any ShowcaseClock
    let log: DaemonLog
    let notifier: SystemdNotifier
    /// Keeps `export.directory` current (its loop runs as the ``ExportService``).
    let exporter: Exporter
    /// The change history under `state.directory` (fixed at startup, like the cache).
    let history: HistoryRecorder
    /// Where the configuration was read from (Status shows it).
    let configPath: String
    private let load: @Sendable () throws(ConfigErrors) -> Configuration
    private let reloads = SerialGate()
    private let startedCacheDirectory: String
    private let startedSocketPath: String

    /// A service over `configuration` (read from `configPath` by `load`, which a reload calls again), fetching
    /// through the transport `transport` makes for each configuration.
    init(
        configuration: Configuration, configPath: String,
        load: @escaping @Sendable () throws(ConfigErrors) -> Configuration,
        transport: @escaping @Sendable (Configuration) -> any LookupTransport, clock: any ShowcaseClock = SystemClock(),
        jitter: @escaping @Sendable () -> Double = { .random(in: 0...1) }, log: DaemonLog,
        notifier: SystemdNotifier
    ) {
        self.configPath = configPath
        self.load = load
        self.clock = clock
        self.log = log
        self.notifier = notifier
        startedCacheDirectory = configuration.cache.directory
        startedSocketPath = configuration.socket.path
        let state = StateOwner(
            configuration,
            cache: FileCache(directory: URL(fileURLWithPath: configuration.cache.directory, isDirectory: true)),
            transport: transport, clock: clock, jitter: jitter)
        self.state = state
        let exporter = Exporter(state: state, log: log)
        self.exporter = exporter
        let limiter = RateLimiter(clock: clock, spacing: { state.config.requestSpacing })
        upstream = Upstream(state: state, limiter: limiter, log: log)
        let history = HistoryRecorder(directory: configuration.historyDirectory, log: log, clock: clock)
        self.history = history
        let refresher = Refresher(state: state, upstream: upstream, clock: clock, log: log, history: history)
        self.refresher = refresher
        // After each refresh, systemd's STATUS= line is brought up to date ("3 storefronts: 2 fresh, 1 stale").
        let afterRefresh = LockedBox<(@Sendable () -> Void)?>(nil)
        let scheduler = RefreshScheduler(
            state: state, limiter: limiter,
            refresh: { edition in
                let outcome = await refresher.refresh(edition)
                afterRefresh.withLock { $0 }?()
                return outcome
            })
        self.scheduler = scheduler
        state.observe { [log] observers in
            observers.queueChanged = { forgotten in scheduler.queueChanged(forgotten: forgotten) }
            // A cached roster found unusable only when first decoded (truncated, altered) is a miss, refetched soon.
            observers.unusable = { edition in
                log.warning(
                    "the cached \(edition) roster is unreadable (truncated, altered or foreign) or none of its apps "
                        + "passes lookup.artwork_hosts now; fetching it again",
                    fields: [.storefront: edition.storefront.code])
            }
            observers.exportScheduleChanged = { exporter.wake() }
        }
        // A version or price change is no new revision (neither is served), but it is a new feed entry.
        history.onGrowth { state.update { state, _ in state.historyGrew() } }
        if notifier.isEnabled {
            afterRefresh.withLock { $0 = { [weak self] in self.map { $0.notifier.status($0.statusLine()) } } }
        }
    }

    // MARK: Cache and schedule

    /// Seeds the store from the cache directory: host identities, the listing of every roster file, then the
    /// diagnostics no refresh has cleared. Only headers are read (a few milliseconds for 175 storefronts); each
    /// roster is decoded when first needed, or by the ``CacheDecodingService`` after READY. Returns how many
    /// rosters are listed.
    func loadCache() -> Int {
        let cache = state.cache
        let abandoned = cache.removeAbandonedTemporaryFiles()
        if abandoned > 0 { log.info("removed \(abandoned) temporary cache files left by an interrupted write") }
        let hosts = state.config.configuration.hosts
        let identities = hosts.compactMap { cache.loadIdentity(bundleId: $0.bundleID) }
        let listed = cache.listRosters()
        state.update { state, _ in state.load(identities: identities, listed: listed) }
        restoreDiagnostics(from: cache, over: listed)
        return listed.count
    }

    /// Puts `storefronts` on the schedule, each of its editions (one per configured language, or the plain
    /// one): fresh ones at the end of their lifetime, stale and missing ones spread one rate-limiter slot apart.
    func scheduleWarm(_ storefronts: [Storefront]) {
        let now = state.moment
        state.update { state, draw in
            state.keepWarm(storefronts.flatMap { state.config.configuration.editions(of: $0) }, at: now, draw: draw)
        }
    }

    // MARK: Rosters

    /// The roster `request` gets now. With `keepWarm`, a storefront outside the warm set is fetched once
    /// (concurrent queries share the fetch) and kept warm from then on.
    func view(for request: RosterRequest, keepWarm: Bool = true) -> RosterView {
        let found = state.answer(
            host: request.host.bundleID, edition: request.edition, now: clock.now, under: request.snapshot)
        let view = RosterView(found, request: request)
        if keepWarm { keepWarmOnDemand(request.storefront, cachedAt: view.fetchedAt) }
        return view
    }

    /// A storefront outside the warm set: fetch it once and keep it warm. With a cached roster (`fetchedAt`) it
    /// is scheduled from that fetch time instead — refreshed at once only if stale — so a roster served from the
    /// cache never ages unrefreshed. A storefront not in the configuration has one edition, fetched without
    /// `lang`.
    func keepWarmOnDemand(_ storefront: Storefront, cachedAt fetchedAt: Date? = nil) {
        guard !state.isWarm(storefront) else { return }
        let now = state.moment
        state.update { state, draw in state.keepWarmOnDemand(storefront, cachedAt: fetchedAt, at: now, draw: draw) }
    }

    /// Answers `request` once its storefront has settled (the refresh this asks for finished) or `wait` has
    /// passed, whichever comes first. Returns the way to abandon the wait (its caller hung up: nothing is sent, the
    /// timer is cancelled), or nil without waiting when the state's ``WaitBook`` is full: the caller answers at once
    /// instead, so no number of calls can grow memory without bound. Waits on one storefront share one fetch.
    func whenSettled(
        _ request: RosterRequest, within wait: Duration, _ answer: @escaping @Sendable (RosterView) -> Void
    ) -> (@Sendable () -> Void)? {
        let edition = request.edition
        let state = self.state
        let settle = SettleWait { [self] (wait: SettleWait, deliver: Bool) in
            state.update { state, _ in
                state.removeWait(wait, for: edition)
                return StateChange.none
            }
            if deliver { answer(view(for: request.with(state.config), keepWarm: false)) }
        }
        guard let first = state.update({ state, _ in (state.admitWait(settle, for: edition), StateChange.none) })
        else { return nil }
        settle.startTimer(wait, clock: clock)
        if first {
            let scheduler = self.scheduler
            Task {
                state.update { state, _ in state.prioritize(edition) }
                _ = await scheduler.refreshNow(edition)
                state.update { state, _ in state.settleWaits(edition) }
            }
        }
        return { settle.finish(deliver: false) }
    }

    // MARK: Status

    /// Every warm roster (one row per storefront, or per language of a multilingual one) as the default host sees
    /// it, with the upstream counters and reload bookkeeping.
    func status() -> StatusReport {
        let snapshot = state.config
        let schedule = schedule()
        var storefronts: [StatusReport.Storefront] = []
        if let host = snapshot.configuration.hosts.first {
            for storefront in state.warm.sorted() {
                for edition in snapshot.configuration.editions(of: storefront) {
                    let request = RosterRequest(
                        snapshot: snapshot, storefront: storefront, host: host, edition: edition)
                    let view = view(for: request, keepWarm: false)
                    // An unavailable or failed roster shows the error Get answers with, also while the refresh that
                    // recorded it is still running (its other requests pending) and before it records its outcome.
                    let lastError = view.problem ?? state.lastRefreshError(edition)
                    storefronts.append(
                        StatusReport.Storefront(
                            storefront: storefront, language: edition.language, state: view.state,
                            apps: view.servedCount, fetchedAt: view.fetchedAt, nextRefreshAt: schedule[edition],
                            lastError: lastError, cacheWriteError: state.cacheWriteError(edition),
                            droppedRows: view.roster?.droppedRows.count ?? 0,
                            truncated: view.roster?.isTruncated ?? false))
                }
            }
        }
        return StatusReport(
            configPath: configPath, configGeneration: snapshot.generation, upstream: upstream.snapshot,
            storefronts: storefronts, lastReloadError: state.read { $0.lastReloadError },
            hosts: snapshot.configuration.hosts.map { host in
                let identity = state.identity(host.bundleID)
                return StatusReport.Host(
                    bundleID: host.bundleID, appID: identity?.trackId ?? host.appID, artistID: identity?.artistId,
                    warning: state.hostWarning(host.bundleID))
            }, export: exportStatus(), problems: history.problems())
    }

    /// Every warm edition's next refresh as wall-clock time (never before a throttle pause ends: it holds every
    /// request back).
    func schedule() -> [StorefrontEdition: Date] {
        let now = state.moment
        let pauseEnd = upstream.limiter.pause.map { clock.date(at: $0) }
        return state.read { $0.nextRefreshes(at: now, pauseEnd: pauseEnd) }
    }

    /// systemd's `STATUS=` line: how many warm storefronts are in each state ("3 storefronts: 2 fresh, 1 stale").
    func statusLine() -> String {
        let snapshot = state.config
        guard let host = snapshot.configuration.hosts.first else { return "no hosts" }
        var counts: [ServedState: Int] = [:]
        let storefronts = state.warm
        for storefront in storefronts {
            let request = RosterRequest(snapshot: snapshot, storefront: storefront, host: host)
            counts[view(for: request, keepWarm: false).state, default: 0] += 1
        }
        let parts = ServedState.allCases.compactMap { state in counts[state].map { "\($0) \(state.rawValue)" } }
        return "\(storefronts.count) storefronts: " + (parts.isEmpty ? "none" : parts.joined(separator: ", "))
    }

    // MARK: Refresh

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
        guard let pause = upstream.limiter.pause, pause - clock.instant > timeout else { return nil }
        let until = RFC3339.seconds(clock.date(at: pause))
        return RefreshFailure("throttled until \(until) by the lookup service; the refresh runs then")
    }

    /// What `refresh(_:)` hears while it waits: one storefront's outcome, or a long throttle pause.
    private enum RefreshProgress: Sendable {
        case finished(StorefrontEdition, RefreshOutcome)
        case throttled(RefreshFailure)
    }

    // MARK: Reload

    /// Validates the configuration file and its overlays completely, then swaps them in at once; on any error
    /// nothing changes and the error is kept for Status. Reloads run one at a time. Returns the new generation.
    func reload(trigger: String) async -> Result<Int, ConfigErrors> {
        await reloads.run { await self.reloadNow(trigger: trigger) }
    }

    private func reloadNow(trigger: String) async -> Result<Int, ConfigErrors> {
        notifier.reloading()
        let configuration: Configuration
        do {
            configuration = try load()
        } catch {
            let generation = state.update { state, _ in
                state.rejectReload(error.oneLine)
                return (state.config.generation, StateChange.none)
            }
            log.error("reload (\(trigger)) rejected, still running generation \(generation): \(error.first)")
            notifier.ready(status: statusLine())
            return .failure(error)
        }
        let reload = state.reload(to: configuration)
        let old = reload.old
        if configuration.socket.path != startedSocketPath {
            log.notice("socket.path changed to \(configuration.socket.path); it takes effect after a restart")
        }
        if configuration.socket.maxConnections != old.socket.maxConnections
            || configuration.socket.maxConnectionsPerUID != old.socket.maxConnectionsPerUID
        {
            log.notice("socket.max_connections and max_connections_per_uid take effect after a restart")
        }
        if configuration.cache.directory != startedCacheDirectory {
            log.notice("cache.directory changed to \(configuration.cache.directory); it takes effect after a restart")
        }
        if reload.artworkHostsChanged {
            log.notice("lookup.artwork_hosts changed; refetching every roster so its icons obey the new prefixes")
        }
        if let directory = old.export?.directory, directory != configuration.export?.directory {
            log.notice(
                "export.directory changed from \(directory)"
                    + (configuration.export.map { " to \($0.directory)" } ?? " to none")
                    + "; the tree already exported there is left as it is (remove it when nothing serves it)")
        }
        log.notice(
            "reloaded configuration by \(trigger): generation \(reload.generation), \(configuration.summary)")
        notifier.ready(status: statusLine())
        return .success(reload.generation)
    }
}
