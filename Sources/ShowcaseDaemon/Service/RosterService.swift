import FoundationEssentials
import Locking
import ShowcaseConfig
import ShowcaseCore

/// The running daemon's state and the one owner of it: the configuration snapshot, the roster store, the warm
/// set, the upstream and the refresh scheduler. The Varlink methods ask it for domain values (a ``RosterView``,
/// a ``StatusReport``, a ``RefreshReport``, a reload's outcome) and only decode parameters and encode replies.
///
/// All time comes from the one injected ``ShowcaseClock``; the settings come from the current snapshot whenever
/// they are needed, so a reload is the swap of that snapshot plus the warm-set changes it implies.
final class RosterService: Sendable {
    let config: ConfigHolder
    let store = RosterStore()
    let warm = WarmSet()
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
    /// `Roster.Get` calls now waiting in ``whenSettled(_:within:_:)``, at most 4096 across every client.
    let pendingWaits = PendingWaits(limit: 4096)

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
        exporter = Exporter(clock: clock, log: log)
        startedCacheDirectory = configuration.cache.directory
        startedSocketPath = configuration.socket.path
        let config = ConfigHolder(
            configuration,
            cache: FileCache(directory: URL(fileURLWithPath: configuration.cache.directory, isDirectory: true)),
            transport: transport)
        self.config = config
        let limiter = RateLimiter(clock: clock, spacing: { config.current.requestSpacing })
        upstream = Upstream(config: config, limiter: limiter, log: log)
        let history = HistoryRecorder(directory: configuration.historyDirectory, log: log)
        self.history = history
        let refresher = Refresher(
            store: store, upstream: upstream, config: config, clock: clock, log: log, history: history)
        self.refresher = refresher
        // After each refresh, systemd's STATUS= line is brought up to date ("3 storefronts: 2 fresh, 1 stale").
        let afterRefresh = LockedBox<(@Sendable () -> Void)?>(nil)
        scheduler = RefreshScheduler(
            clock: clock, limiter: limiter, settings: { config.current.schedule }, jitter: jitter,
            refresh: { edition in
                let outcome = await refresher.refresh(edition)
                afterRefresh.withLock { $0 }?()
                return outcome
            })
        // A cached roster found unusable only when first decoded (truncated, altered) is a miss: fetch it soon
        // rather than at the end of the lifetime its header claimed.
        store.onUnusableCacheFile { [log, warm, scheduler] edition in
            log.warning(
                "the cached \(edition) roster is unreadable (truncated, altered or foreign) or none of its apps "
                    + "passes lookup.artwork_hosts now; fetching it again",
                fields: [.storefront: edition.storefront.code])
            if warm.contains(edition.storefront) { Task { await scheduler.expedite([edition]) } }
        }
        // Every change to a roster (a new revision, a failure, a decoded cache file) is a reason to export.
        _ = store.watch { [config, exporter] _ in
            if config.current.configuration.export != nil { exporter.rostersChanged() }
        }
        // A version or price change is no new revision (neither is served), but it is a new feed entry.
        history.onGrowth { [config, exporter] in
            if config.current.configuration.export != nil { exporter.rostersChanged() }
        }
        if notifier.isEnabled {
            afterRefresh.withLock { $0 = { [weak self] in self.map { $0.notifier.status($0.statusLine()) } } }
        }
    }

    // MARK: Cache and schedule

    /// Seeds the store from the cache directory: host identities, the listing of every roster file, then the
    /// diagnostics no refresh has cleared. Only headers are read (a few milliseconds for 175 storefronts); each
    /// roster is decoded when first needed, or by ``decodeCache()`` after READY. Returns how many rosters are listed.
    func loadCache() -> Int {
        let cache = config.cache
        let abandoned = cache.removeAbandonedTemporaryFiles()
        if abandoned > 0 { log.info("removed \(abandoned) temporary cache files left by an interrupted write") }
        let hosts = config.current.configuration.hosts
        let identities = hosts.compactMap { cache.loadIdentity(bundleId: $0.bundleID) }
        let listed = cache.listRosters()
        store.load(identities: identities, listed: listed, from: cache) { [config] in
            config.current.configuration.lookup.urlRules
        }
        restoreDiagnostics(from: cache, over: listed)
        return listed.count
    }

    /// Decodes every cached roster nothing has asked for yet, so the first query of each storefront finds it in
    /// memory. Queries arriving meanwhile decode their own roster on demand.
    func decodeCache() {
        let started = clock.instant
        let listed = store.undecodedCount
        let unusable = store.decodeListed()
        let elapsed = (clock.instant - started).seconds
        log.info(
            "decoded \(listed) cached rosters in \(Int((elapsed * 1000).rounded())) ms"
                + (unusable > 0 ? " (\(unusable) unreadable, refetching)" : ""))
    }

    /// Puts `storefronts` on the schedule, each of its editions (one per configured language, or the plain
    /// one): fresh ones at the end of their lifetime, stale and missing ones spread one rate-limiter slot apart.
    func scheduleWarm(_ storefronts: [Storefront]) async {
        await scheduleWarm(editions: storefronts.flatMap { config.current.configuration.editions(of: $0) })
    }

    /// Puts `editions` on the schedule (their storefronts join the warm set), as ``scheduleWarm(_:)`` does.
    func scheduleWarm(editions: [StorefrontEdition]) async {
        let snapshot = config.current
        let hosts = snapshot.configuration.hosts
        let artists = Set(hosts.compactMap { store.identity($0.bundleID)?.artistId })
        let allResolved = hosts.allSatisfy { store.identity($0.bundleID) != nil }
        let fetched = store.fetchTimes(artistIds: artists)
        let now = clock.now
        var position = 0
        for edition in editions {
            _ = warm.insert(edition.storefront)
            let fresh = (allResolved ? fetched[edition] : nil).flatMap { fetchedAt in
                Freshness(fetchedAt: fetchedAt, now: now, lifetime: snapshot.schedule.interval) == .fresh
                    ? fetchedAt : nil
            }
            await scheduler.keepWarm(edition, fetchedAt: fresh, position: position)
            if fresh == nil { position += 1 }
        }
    }

    // MARK: Rosters

    /// The roster `request` gets now. With `keepWarm`, a storefront outside the warm set is fetched once
    /// (concurrent queries share the fetch) and kept warm from then on.
    func view(for request: RosterRequest, keepWarm: Bool = true) -> RosterView {
        let (answer, revision, identity) = store.answer(
            host: request.host.bundleID, edition: request.edition, now: clock.now,
            lifetime: request.snapshot.schedule.interval)
        let view = RosterView(answer, revision: revision, identity: identity, request: request)
        if keepWarm { keepWarmOnDemand(request.storefront, cachedAt: view.fetchedAt) }
        return view
    }

    /// A storefront outside the warm set: fetch it once and keep it warm. With a cached roster (`fetchedAt`) it
    /// is scheduled from that fetch time instead — refreshed at once only if stale — so a roster served from the
    /// cache never ages unrefreshed. A storefront not in the configuration has one edition, fetched without
    /// `lang`.
    func keepWarmOnDemand(_ storefront: Storefront, cachedAt fetchedAt: Date? = nil) {
        guard warm.insert(storefront) else { return }
        let scheduler = self.scheduler
        let editions = config.current.configuration.editions(of: storefront)
        if let fetchedAt {
            Task { for edition in editions { await scheduler.keepWarm(edition, fetchedAt: fetchedAt) } }
        } else {
            Task { for edition in editions { _ = await scheduler.refreshNow(edition) } }
        }
    }

    /// Answers `request` once its storefront has settled (the refresh this asks for finished) or `wait` has
    /// passed, whichever comes first. Returns the way to abandon the wait (its caller hung up: nothing is sent, the
    /// timer is cancelled), or nil without waiting when ``pendingWaits`` is full: the caller answers at once
    /// instead, so no number of calls can grow memory without bound. Waits on one storefront share one fetch.
    func whenSettled(
        _ request: RosterRequest, within wait: Duration, _ answer: @escaping @Sendable (RosterView) -> Void
    ) -> (@Sendable () -> Void)? {
        let edition = request.edition
        let pending = pendingWaits
        let settle = SettleWait { [self] (wait: SettleWait, deliver: Bool) in
            pending.remove(wait, edition)
            if deliver { answer(view(for: request.with(config.current), keepWarm: false)) }
        }
        guard let first = pending.admit(settle, edition) else { return nil }
        settle.startTimer(wait, clock: clock)
        if first {
            let scheduler = self.scheduler
            Task {
                await scheduler.prioritize(edition)
                _ = await scheduler.refreshNow(edition)
                pending.settleAll(edition)
            }
        }
        return { settle.finish(deliver: false) }
    }

    // MARK: Status

    /// Every warm roster (one row per storefront, or per language of a multilingual one) as the default host sees
    /// it, with the upstream counters and reload bookkeeping.
    func status() async -> StatusReport {
        let snapshot = config.current
        let schedule = await scheduler.schedule()
        var storefronts: [StatusReport.Storefront] = []
        if let host = snapshot.configuration.hosts.first {
            for storefront in warm.all.sorted() {
                for edition in snapshot.configuration.editions(of: storefront) {
                    let request = RosterRequest(
                        snapshot: snapshot, storefront: storefront, host: host, edition: edition)
                    let view = view(for: request, keepWarm: false)
                    // An unavailable or failed roster shows the error Get answers with, also while the refresh that
                    // recorded it is still running (its other requests pending) and before it records its outcome.
                    let lastError = view.problem ?? store.lastRefreshError(edition)
                    storefronts.append(
                        StatusReport.Storefront(
                            storefront: storefront, language: edition.language, state: view.state,
                            apps: view.servedCount, fetchedAt: view.fetchedAt, nextRefreshAt: schedule[edition],
                            lastError: lastError, cacheWriteError: store.cacheWriteError(edition),
                            droppedRows: view.roster?.droppedRows.count ?? 0,
                            truncated: view.roster?.isTruncated ?? false))
                }
            }
        }
        return StatusReport(
            configPath: configPath, configGeneration: snapshot.generation, upstream: upstream.snapshot,
            storefronts: storefronts, lastReloadError: config.lastReloadError,
            hosts: snapshot.configuration.hosts.map { host in
                let identity = store.identity(host.bundleID)
                return StatusReport.Host(
                    bundleID: host.bundleID, appID: identity?.trackId ?? host.appID, artistID: identity?.artistId,
                    warning: store.hostWarning(host.bundleID))
            }, export: exportStatus())
    }

    /// systemd's `STATUS=` line: how many warm storefronts are in each state ("3 storefronts: 2 fresh, 1 stale").
    func statusLine() -> String {
        let snapshot = config.current
        guard let host = snapshot.configuration.hosts.first else { return "no hosts" }
        var counts: [ServedState: Int] = [:]
        let storefronts = warm.all
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
        let targets = requested.map { [$0] } ?? warm.all.sorted()
        for storefront in targets { _ = warm.insert(storefront) }
        let configuration = config.current.configuration
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
        let timeout = config.current.configuration.lookup.timeout
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
            config.lastReloadError = error.oneLine
            log.error("reload (\(trigger)) rejected, still running generation \(config.generation): \(error.first)")
            notifier.ready(status: statusLine())
            return .failure(error)
        }
        let old = config.current.configuration
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
        let snapshot = config.install(configuration)
        // By edition: a storefront whose languages changed drops the languages no longer listed and fetches the
        // new ones, keeping the rest on their schedule.
        let (oldEditions, newEditions) = (old.editions, configuration.editions)
        let (oldSet, newSet) = (Set(oldEditions), Set(newEditions))
        let added = newEditions.filter { !oldSet.contains($0) }
        let removed = oldEditions.filter { !newSet.contains($0) }
        let newHosts = configuration.hosts.contains { store.identity($0.bundleID) == nil }
        for storefront in old.storefronts where !configuration.storefronts.contains(storefront) {
            warm.remove(storefront)
        }
        for edition in removed { await scheduler.forget(edition) }
        // A storefront kept warm on demand (fetched without `lang`) that is now configured with languages.
        for storefront in configuration.languages.keys { await scheduler.forget(StorefrontEdition(storefront)) }
        await scheduler.reschedule()
        await scheduleWarm(editions: added)
        if newHosts { await scheduler.expedite(configuration.editions) }
        // Rosters in memory were checked against the old prefixes; refetched, each obeys the new ones (a roster
        // decoded from the cache from now on already does).
        if configuration.lookup.artworkHosts != old.lookup.artworkHosts {
            log.notice("lookup.artwork_hosts changed; refetching every roster so its icons obey the new prefixes")
            if !newHosts { await scheduler.expedite(configuration.editions) }
        }
        store.announce(warm.all)
        // Overlay, attribution, hosts, storefronts or the export settings may have changed what the tree holds.
        if configuration.export != nil { exporter.configurationChanged() }
        if let directory = old.export?.directory, directory != configuration.export?.directory {
            log.notice(
                "export.directory changed from \(directory)"
                    + (configuration.export.map { " to \($0.directory)" } ?? " to none")
                    + "; the tree already exported there is left as it is (remove it when nothing serves it)")
        }
        log.notice(
            "reloaded configuration by \(trigger): generation \(snapshot.generation), \(configuration.summary)")
        notifier.ready(status: statusLine())
        return .success(snapshot.generation)
    }
}
