import Foundation
import ShowcaseConfig
import ShowcaseCore
import Varlink

/// Everything a running daemon holds, and the operations several entry points share: status, reload
/// (by `Admin.Reload` and SIGHUP), refresh. `Daemon` wires it to the socket, signals and systemd.
final class DaemonCore: Sendable {
    let options: DaemonOptions
    let configPath: String
    let log: DaemonLog
    let notifier: SystemdNotifier
    let config: ConfigHolder
    let store = RosterStore()
    let warm = WarmSet()
    let upstream: Upstream
    let scheduler: RefreshScheduler
    /// Serializes reloads, so two never interleave.
    let reloadQueue = DispatchQueue(label: "showcased.reload")
    private let startedCacheDirectory: String
    private let startedSocketPath: String

    init(
        options: DaemonOptions, configPath: String, configuration: Configuration, log: DaemonLog,
        notifier: SystemdNotifier
    ) {
        self.options = options
        self.configPath = configPath
        self.log = log
        self.notifier = notifier
        startedCacheDirectory = configuration.cache.directory
        startedSocketPath = configuration.socket.path
        config = ConfigHolder(
            configuration,
            cache: FileCache(directory: URL(fileURLWithPath: configuration.cache.directory, isDirectory: true)))
        let rate = configuration.lookup.rateLimit
        let limiter = RateLimiter(count: rate.requests, per: rate.period)
        upstream = Upstream(
            transport: Self.transport(for: configuration), limiter: limiter,
            fallbackBackoff: configuration.refresh.retry, maximumBackoff: configuration.refresh.interval, log: log)
        let refresher = Refresher(store: store, upstream: upstream, config: config, log: log)
        // After each refresh, systemd's STATUS= line is brought up to date ("3 storefronts: 2 fresh, 1 stale").
        let afterRefresh = NSLockedBox<(@Sendable () -> Void)?>(nil)
        scheduler = RefreshScheduler(
            timing: Self.timing(configuration), limiter: limiter,
            refresh: { storefront in
                let outcome = await refresher.refresh(storefront)
                afterRefresh.withLock { $0 }?()
                return outcome
            })
        // A cached roster found unusable only when first decoded (truncated, altered) is a miss: fetch it soon
        // rather than at the end of the lifetime its header claimed.
        store.onUnusableCacheFile { [log, warm, scheduler] storefront in
            log.warning(
                "the cached \(storefront) roster is unreadable (truncated, altered or foreign); fetching it again")
            if warm.contains(storefront) { Task { await scheduler.expedite([storefront]) } }
        }
        if notifier.isEnabled {
            afterRefresh.withLock { $0 = { [weak self] in self.map { $0.notifier.status($0.statusLine()) } } }
        }
    }

    static func transport(for configuration: Configuration) -> any LookupTransport {
        URLSessionTransport(
            endpoint: configuration.lookup.endpoint, timeout: configuration.lookup.timeout,
            maxResponseBytes: configuration.lookup.maxResponseBytes, version: ShowcaseVersion.string)
    }

    static func timing(_ configuration: Configuration) -> RefreshSchedule { configuration.refresh }

    /// Loads the configuration file with the command line's overrides applied.
    static func loadConfiguration(path: String, options: DaemonOptions) throws(ConfigErrors) -> Configuration {
        var configuration = try ConfigLoader.load(path: path)
        if let socket = options.socketPath { configuration.socket.path = socket }
        if let cache = options.cacheDirectory { configuration.cache.directory = cache }
        return configuration
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
        store.load(identities: identities, listed: listed, from: cache)
        restoreDiagnostics(from: cache, over: listed)
        return listed.count
    }

    /// Decodes every cached roster nothing has asked for yet, off the event loop, so the first query of each
    /// storefront finds it in memory. Queries arriving meanwhile decode their own roster on demand.
    func decodeCache() {
        let started = ContinuousClock.now
        let listed = store.undecodedCount
        let unusable = store.decodeListed()
        let elapsed = (ContinuousClock.now - started).components
        let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        log.info(
            "decoded \(listed) cached rosters in \(Int(milliseconds.rounded())) ms"
                + (unusable > 0 ? " (\(unusable) unreadable, refetching)" : ""))
    }

    /// Puts `storefronts` on the schedule: fresh ones at the end of their lifetime, stale and missing ones
    /// spread one rate-limiter slot apart.
    func scheduleWarm(_ storefronts: [Storefront]) async {
        let snapshot = config.current
        let artists = Set(snapshot.configuration.hosts.compactMap { store.identity($0.bundleID)?.artistId })
        let allResolved = snapshot.configuration.hosts.allSatisfy { store.identity($0.bundleID) != nil }
        let fetched = store.fetchTimes(artistIds: artists)
        let lifetime = snapshot.configuration.refresh.interval.seconds
        var position = 0
        for storefront in storefronts {
            _ = warm.insert(storefront)
            let fetchedAt = allResolved ? fetched[storefront] : nil
            let isFresh = fetchedAt.map { Date().timeIntervalSince($0) < lifetime && $0 <= Date() } ?? false
            await scheduler.keepWarm(storefront, fetchedAt: isFresh ? fetchedAt : nil, position: position)
            if !isFresh { position += 1 }
        }
    }

    // MARK: Status

    func statusLine() -> String {
        let snapshot = config.current
        guard let host = snapshot.configuration.hosts.first else { return "no hosts" }
        var counts: [String: Int] = [:]
        let storefronts = warm.all
        for storefront in storefronts {
            counts[state(host: host, storefront: storefront, snapshot: snapshot).state, default: 0] += 1
        }
        let parts = ["fresh", "stale", "warming", "failed"].compactMap { key in
            counts[key].map { "\($0) \(key)" }
        }
        return "\(storefronts.count) storefronts: " + (parts.isEmpty ? "none" : parts.joined(separator: ", "))
    }

    private func state(host: HostConfiguration, storefront: Storefront, snapshot: ConfigSnapshot)
        -> (state: String, fetchedAt: Date?, apps: Int)
    {
        let (answer, _, _) = store.answer(
            host: host.bundleID, storefront: storefront, now: Date(),
            lifetime: snapshot.configuration.refresh.interval)
        switch answer {
        case .roster(let roster, let freshness): return (freshness.rawValue, roster.fetchedAt, roster.apps.count)
        case .warming, .unavailable: return ("warming", nil, 0)
        case .failed: return ("failed", nil, 0)
        }
    }

    func status() async -> JSONValue {
        let snapshot = config.current
        let schedule = await scheduler.schedule()
        let counters = upstream.snapshot
        var storefronts: [JSONValue] = []
        if let host = snapshot.configuration.hosts.first {
            for storefront in warm.all.sorted() {
                let (state, fetchedAt, apps) = state(host: host, storefront: storefront, snapshot: snapshot)
                var entry: [String: JSONValue] = [
                    "code": .string(storefront.code), "state": .string(state), "apps": .int(Int64(apps)),
                ]
                if let fetchedAt { entry["fetchedAt"] = .string(ReplyEncoding.timestamp(fetchedAt)) }
                if let next = schedule[storefront] { entry["nextRefreshAt"] = .string(ReplyEncoding.timestamp(next)) }
                if let error = store.lastRefreshError(storefront) { entry["lastError"] = .string(error.description) }
                storefronts.append(.object(entry))
            }
        }
        var reply: [String: JSONValue] = [
            "version": .string(ShowcaseVersion.string), "configPath": .string(configPath),
            "configGeneration": .int(Int64(snapshot.generation)),
            "upstream": [
                "requests": .int(Int64(counters.requests)), "failures": .int(Int64(counters.failures)),
                "throttled": .int(Int64(counters.throttled)),
            ],
            "storefronts": .array(storefronts),
        ]
        if let error = config.lastReloadError { reply["lastReloadError"] = .string(error) }
        return .object(reply)
    }

    // MARK: Refresh

    func refresh(_ requested: Storefront?) async -> JSONValue {
        let targets = requested.map { [$0] } ?? warm.all.sorted()
        for storefront in targets { _ = warm.insert(storefront) }
        let scheduler = self.scheduler
        let outcomes = await withTaskGroup(of: (Storefront, RefreshOutcome).self) { group in
            for storefront in targets {
                group.addTask { (storefront, await scheduler.refreshNow(storefront)) }
            }
            var results: [(Storefront, RefreshOutcome)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        var refreshed: [JSONValue] = []
        var failed: [JSONValue] = []
        for (storefront, outcome) in outcomes {
            switch outcome {
            case .updated: refreshed.append(.string(storefront.code))
            case .failed(let failure):
                failed.append(["storefront": .string(storefront.code), "error": .string(failure.description)])
            }
        }
        notifier.status(statusLine())
        return ["refreshed": .array(refreshed), "failed": .array(failed)]
    }

    // MARK: Reload

    /// Validates the configuration file and its overlays completely, then swaps them in at once; on any
    /// error nothing changes and the error is kept for Status. Call on `reloadQueue`.
    func reload(trigger: String) -> Result<Int, ConfigErrors> {
        notifier.reloading()
        let configuration: Configuration
        do {
            configuration = try Self.loadConfiguration(path: configPath, options: options)
        } catch {
            config.lastReloadError = error.errors.map(\.description).joined(separator: "; ")
            log.error("reload (\(trigger)) rejected, still running generation \(config.generation): \(error.first)")
            notifier.ready(status: statusLine())
            return .failure(error)
        }
        let old = config.current.configuration
        if configuration.socket.path != startedSocketPath {
            log.notice("socket.path changed to \(configuration.socket.path); it takes effect after a restart")
        }
        if configuration.cache.directory != startedCacheDirectory {
            log.notice("cache.directory changed to \(configuration.cache.directory); it takes effect after a restart")
        }
        let snapshot = config.install(configuration)
        let rate = configuration.lookup.rateLimit
        upstream.limiter.setRate(count: rate.requests, per: rate.period)
        upstream.reconfigure(
            transport: Self.transport(for: configuration), fallbackBackoff: configuration.refresh.retry,
            maximumBackoff: configuration.refresh.interval)
        let added = configuration.storefronts.filter { !old.storefronts.contains($0) }
        let removed = old.storefronts.filter { !configuration.storefronts.contains($0) }
        let newHosts = configuration.hosts.contains { store.identity($0.bundleID) == nil }
        let done = DispatchSemaphore(value: 0)
        Task { [self] in
            await scheduler.setTiming(Self.timing(configuration))
            for storefront in removed {
                warm.remove(storefront)
                await scheduler.forget(storefront)
            }
            await scheduleWarm(added)
            if newHosts { await scheduler.expedite(configuration.storefronts) }
            done.signal()
        }
        done.wait()
        log.notice(
            "reloaded configuration by \(trigger): generation \(snapshot.generation), \(configuration.summary)")
        notifier.ready(status: statusLine())
        return .success(snapshot.generation)
    }
}
