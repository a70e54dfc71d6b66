import FoundationEssentials
import ShowcaseConfig
import ShowcaseCore

/// Everything the running daemon knows and decides, as one value: the configuration in force, every host's
/// identity and roster record (``RosterBook``), the refresh queue — whose editions are the warm set — the
/// `Roster.Get` calls waiting for a warming roster (``WaitBook``), when the next export pass runs
/// (``ExportSchedule``), what the export remembers between passes (``ExportBook``) and what is kept of the change
/// histories (``HistoryBook``).
///
/// Every change is a `mutating` transition that takes the time it happens at (and any jitter draw) as arguments
/// and returns a ``StateChange``: which answers it invalidates, whom to tell, whether the refresh worker must look
/// again, whether to export. The value does no I/O, reads no clock and calls nothing back, so each transition is a
/// plain unit test (`DaemonStateTests`). ``StateOwner`` holds the one live copy behind one lock and carries out
/// what the transitions return.
struct DaemonState: Sendable {
    /// The configuration in force and its generation.
    private(set) var config: ConfigSnapshot
    /// Why the last reload was rejected, for Status; nil once one succeeds.
    private(set) var lastReloadError: String?
    /// Identities and roster records.
    private(set) var rosters = RosterBook()
    /// Which editions are kept warm and when each is refreshed next.
    private(set) var queue = RefreshQueue()
    /// `Roster.Get` calls waiting for a warming roster.
    private(set) var waits: WaitBook
    /// When the next export pass runs, and the `Admin.Export` calls waiting for one. Changed only by the
    /// transitions in DaemonState+Export.swift (settable from there, so not `private(set)`).
    var exportSchedule = ExportSchedule()
    /// The export's calls, last pass, memory, icon index and host settings epochs. Changed only by the transitions
    /// in DaemonState+Export.swift and by ``reload(to:at:draw:)`` (settable from there, so not `private(set)`).
    var exportBook: ExportBook
    /// Each change history's reading and the logs set aside. Changed only by the transitions in
    /// DaemonState+History.swift (settable from there, so not `private(set)`).
    var history = HistoryBook()
    /// The icon downloads: queued, running, fetched and waiting for a pass, done by round, and counted. Changed
    /// only by the transitions in DaemonState+Icons.swift (settable from there, so not `private(set)`).
    var icons = IconBook()
    /// Whether graceful shutdown has begun, and who waits for it.
    private(set) var shutdown = ShutdownLatch()

    /// The state of a daemon started with `config`, before the cache is read; at most `waitLimit` waits at once.
    init(config: ConfigSnapshot, waitLimit: Int = 4096) {
        self.config = config
        waits = WaitBook(limit: waitLimit)
        exportBook = ExportBook(config)
    }

    // MARK: Reading

    /// The storefronts kept warm: those with an edition in the refresh queue (one forgotten while its refresh
    /// runs no longer counts).
    var warm: Set<Storefront> { Set(queue.warmEditions.map(\.storefront)) }

    /// Whether `storefront` is kept warm (one of its editions is queued).
    func isWarm(_ storefront: Storefront) -> Bool {
        config.configuration.editions(of: storefront).contains { queue.keepsWarm($0) }
    }

    /// Every warm edition's next refresh as wall-clock time at `now` (never before `pauseEnd`, a throttle pause
    /// that holds every request back), for `Admin.Status`.
    func nextRefreshes(at now: RefreshQueue.Moment, pauseEnd: Date?) -> [StorefrontEdition: Date] {
        var result: [StorefrontEdition: Date] = [:]
        for edition in queue.editions {
            guard let next = queue.nextRefresh(edition, at: now) else { continue }
            result[edition] = pauseEnd.map { max($0, next) } ?? next
        }
        return result
    }

    /// The time between two upstream requests that `lookup.rate_limit` allows now.
    var spacing: Duration { config.requestSpacing }

    // MARK: The cache

    /// Adds the cache's identities and roster listing at startup.
    mutating func load(identities: [HostIdentity], listed: [FileCache.Entry]) -> StateChange {
        rosters.list(identities: identities, listed: listed)
        return StateChange(everything: true)
    }

    /// Installs the roster decoded from a listed cache file (nil: unusable) at `now`. Returns what
    /// ``RosterBook/installDecoded(_:from:_:)`` returns; an unusable file of a warm edition is refetched soon
    /// rather than at the end of the lifetime its header claimed.
    mutating func installDecoded(
        _ key: RosterBook.Key, from entry: FileCache.Entry, _ roster: Roster?, at now: ContinuousClock.Instant
    ) -> (Bool?, StateChange) {
        let installed = rosters.installDecoded(key, from: entry, roster)
        guard installed == false else { return (installed, .none) }
        var change = StateChange(unusable: [key.edition])
        if queue.keepsWarm(key.edition) {
            queue.expedite([key.edition], at: now, spacing: spacing)
            change.queueChanged = true
        }
        return (installed, change)
    }

    // MARK: The warm set

    /// Puts `editions` on the schedule at `now`: those whose cached roster every host sees fresh at the end of
    /// its jittered lifetime (one `draw()` each), stale and missing ones one rate-limiter slot apart.
    mutating func keepWarm(_ editions: [StorefrontEdition], at now: RefreshQueue.Moment, draw: () -> Double)
        -> StateChange
    {
        let hosts = config.configuration.hosts
        let artists = Set(hosts.compactMap { rosters.identities[$0.bundleID]?.artistId })
        let allResolved = hosts.allSatisfy { rosters.identities[$0.bundleID] != nil }
        let fetched = rosters.fetchTimes(artistIds: artists)
        var position = 0
        for edition in editions {
            let fresh = (allResolved ? fetched[edition] : nil).flatMap { fetchedAt in
                Freshness(fetchedAt: fetchedAt, now: now.date, lifetime: config.schedule.interval) == .fresh
                    ? fetchedAt : nil
            }
            queue.keepWarm(
                edition, fetchedAt: fresh, position: position, at: now, schedule: config.schedule, spacing: spacing,
                unit: draw())
            if fresh == nil { position += 1 }
        }
        return StateChange(queueChanged: !editions.isEmpty)
    }

    /// Keeps a storefront outside the warm set warm from now on, each of its editions: scheduled from `fetchedAt`
    /// when a cached roster was served (refreshed at once only if stale), else fetched at once. Returns false when
    /// it was warm already.
    mutating func keepWarmOnDemand(
        _ storefront: Storefront, cachedAt fetchedAt: Date?, at now: RefreshQueue.Moment, draw: () -> Double
    ) -> (Bool, StateChange) {
        guard !isWarm(storefront) else { return (false, .none) }
        for edition in config.configuration.editions(of: storefront) {
            if let fetchedAt {
                queue.keepWarm(
                    edition, fetchedAt: fetchedAt, at: now, schedule: config.schedule, spacing: spacing, unit: draw())
            } else {
                queue.requestNow(edition)
            }
        }
        return (true, StateChange(queueChanged: true))
    }

    // MARK: Refreshes

    /// Asks for `edition` to be refreshed as soon as the limiter allows (queued if absent). With
    /// `startingAfterCall` a refresh in progress does not count and one more follows it. Returns whether a
    /// refresh was in progress.
    mutating func requestRefresh(_ edition: StorefrontEdition, startingAfterCall: Bool) -> (Bool, StateChange) {
        let running = queue.isRunning(edition)
        if startingAfterCall { queue.requestAfterRunning(edition) } else { queue.requestNow(edition) }
        return (running, StateChange(queueChanged: true))
    }

    /// Moves a waiting `edition` to the front of the queue (a query waits on it).
    mutating func prioritize(_ edition: StorefrontEdition) -> StateChange {
        queue.prioritize(edition)
        return StateChange(queueChanged: true)
    }

    /// The worker's next job at `now`.
    func nextJob(at now: ContinuousClock.Instant) -> RefreshQueue.Job { queue.nextJob(at: now) }

    /// The worker starts refreshing `edition`. Nothing else needs to hear of it: the worker is the one who asked.
    mutating func beginRefresh(_ edition: StorefrontEdition) -> StateChange {
        queue.begin(edition)
        return .none
    }

    /// The worker's refresh of `edition` ended at `now` with `outcome`; the next one is scheduled with the jitter
    /// draw `unit`. Returns whether the edition is urgent again (someone asked while it ran); the worker that
    /// calls this looks at the queue next anyway, so nobody else is told.
    mutating func finishRefresh(
        _ edition: StorefrontEdition, _ outcome: RefreshOutcome, at now: RefreshQueue.Moment, unit: Double
    ) -> (Bool, StateChange) {
        queue.finish(edition, outcome, at: now, schedule: config.schedule, unit: unit)
        return (queue.isUrgent(edition), .none)
    }

    // MARK: Refresh outcomes

    /// Takes `identity` as its host's (``RosterBook/resolved(_:)``): every answer of that host may change.
    mutating func resolved(_ identity: HostIdentity) -> (RosterBook.IdentityChange, StateChange) {
        (rosters.resolved(identity), StateChange(everything: true))
    }

    /// A known host's re-resolution ended in a diagnostic (``RosterBook/reresolutionFailed(_:in:_:at:)``).
    mutating func reresolutionFailed(_ bundleID: String, in storefront: Storefront, _ error: LookupError, at now: Date)
        -> StateChange
    {
        rosters.reresolutionFailed(bundleID, in: storefront, error, at: now)
        return StateChange(everything: true)
    }

    /// Records a failed identity lookup of `host` in `storefront`.
    mutating func recordIdentityFailure(host: String, storefront: Storefront, _ error: LookupError) -> StateChange {
        rosters.recordIdentityFailure(host: host, storefront: storefront, error)
        return rosterChange(storefront)
    }

    /// Records a roster refresh outcome (a fetched roster already sharing storage); returns whether the
    /// revision changed. The storefront's answers change either way (a new fetch time is a new `fetchedAt`).
    mutating func record(_ outcome: Result<Roster, LookupError>, for key: RosterBook.Key) -> (Bool, StateChange) {
        (rosters.record(outcome, for: key), rosterChange(key.edition.storefront))
    }

    /// Records how the edition's last refresh ended and whether its cache write failed, for Status (read when
    /// asked for, never copied: no answer goes stale).
    mutating func finishedRefresh(_ edition: StorefrontEdition, error: LookupError?, cacheWriteError: String?)
        -> StateChange
    {
        rosters.setLastRefreshError(edition, error)
        rosters.setCacheWriteError(edition, cacheWriteError)
        return .none
    }

    /// A diagnostic kept from before a restart is the edition's last refresh error, unless one is recorded (for
    /// Status, like ``finishedRefresh(_:error:cacheWriteError:)``).
    mutating func restoreLastRefreshError(_ edition: StorefrontEdition, _ error: LookupError) -> StateChange {
        if rosters.lastRefreshError[edition] == nil { rosters.setLastRefreshError(edition, error) }
        return .none
    }

    /// A history grew without a new roster revision (a version or a price): a new feed entry to export.
    func historyGrew() -> StateChange {
        StateChange(export: config.configuration.export == nil ? nil : .rosters)
    }

    /// What a change to `storefront`'s rosters asks for.
    private func rosterChange(_ storefront: Storefront) -> StateChange {
        StateChange(storefronts: [storefront], export: config.configuration.export == nil ? nil : .rosters)
    }

    // MARK: Waits

    /// Books `wait` for `edition` (``WaitBook/admit(_:_:)``): whether it is the edition's first wait (start the
    /// shared fetch), or nil when the book is full — the wait then ends at once without an answer (its timer
    /// cancelled) and the caller answers itself.
    mutating func admitWait(_ wait: SettleWait, for edition: StorefrontEdition) -> (Bool?, StateChange) {
        guard let first = waits.admit(wait, edition) else {
            return (nil, StateChange(endedWaits: [SettleWait.Ending(wait: wait, deliver: false)]))
        }
        return (first, StateChange.none)
    }

    /// The wait named `id` ends on its own: its timer ran out (`deliver`) or its caller hung up (not). Only if it is
    /// still booked is it taken off and ended; a wait its fetch already settled, or that ended before, is left alone.
    mutating func endWait(_ id: SettleWait.ID, for edition: StorefrontEdition, deliver: Bool) -> StateChange {
        guard let wait = waits.remove(id, edition) else { return StateChange.none }
        return StateChange(endedWaits: [SettleWait.Ending(wait: wait, deliver: deliver)])
    }

    /// `edition`'s fetch finished: every wait still booked on it ends with an answer.
    mutating func settleWaits(_ edition: StorefrontEdition) -> StateChange {
        StateChange(endedWaits: waits.settleAll(edition).map { SettleWait.Ending(wait: $0, deliver: true) })
    }

    // MARK: Shutdown

    /// SIGTERM or SIGINT: graceful shutdown begins, and every lifecycle service waiting for it goes on. Beginning
    /// again changes nothing.
    mutating func beginShutdown() -> StateChange {
        StateChange(resumed: shutdown.begin())
    }

    /// A lifecycle service waits for shutdown with `waiter`: booked until it begins, resumed at once after.
    mutating func awaitShutdown(_ waiter: CheckedContinuation<Void, Never>) -> StateChange {
        StateChange(resumed: shutdown.wait(waiter).map { [$0] } ?? [])
    }

    // MARK: Reload

    /// What a reload changed, for the log lines that tell the operator.
    struct Reload: Sendable {
        /// The configuration it replaced.
        var old: Configuration
        /// The generation now in force.
        var generation: Int
        /// Editions that joined the schedule.
        var added: [StorefrontEdition]
        /// Editions that left it.
        var removed: [StorefrontEdition]
        /// `lookup.artwork_hosts` changed: every roster is refetched so its icons obey the new prefixes.
        var artworkHostsChanged: Bool
    }

    /// Swaps in `snapshot` (the next generation) at `now`, with the warm-set changes it implies:
    /// - by edition: editions no longer configured leave the queue (a running one when its refresh ends), new ones
    ///   join it (one `draw()` each), the others keep their place, moved to the new `refresh.*` schedule;
    /// - a storefront kept warm on demand (its plain edition) that is now configured with languages drops the plain
    ///   one;
    /// - a host not resolved yet, or a changed `lookup.artwork_hosts`, brings every configured edition forward;
    /// - every answer may differ (overlay, attribution, hosts): copies are stale, watchers compare, and the export
    ///   runs at once;
    /// - a host whose export settings changed gets a new settings epoch, the others keep theirs
    ///   (``ExportBook/reload(from:to:)``), so that export re-renders only the files of the hosts that changed.
    mutating func reload(to snapshot: ConfigSnapshot, at now: RefreshQueue.Moment, draw: () -> Double)
        -> (Reload, StateChange)
    {
        let old = config.configuration
        let new = snapshot.configuration
        exportBook.reload(from: config, to: snapshot)
        config = snapshot
        lastReloadError = nil
        var change = StateChange(everything: true, queueChanged: true)
        let (oldSet, newSet) = (Set(old.editions), Set(new.editions))
        let added = new.editions.filter { !oldSet.contains($0) }
        let removed = old.editions.filter { !newSet.contains($0) }
        let newHosts = new.hosts.contains { rosters.identities[$0.bundleID] == nil }
        for edition in removed where queue.forget(edition) { change.forgotten.append(edition) }
        for storefront in new.languages.keys {
            let plain = StorefrontEdition(storefront)
            if queue.forget(plain) { change.forgotten.append(plain) }
        }
        queue.reschedule(at: now, schedule: config.schedule)
        change.merge(keepWarm(added, at: now, draw: draw))
        let artworkHostsChanged = new.lookup.artworkHosts != old.lookup.artworkHosts
        if newHosts || artworkHostsChanged { queue.expedite(new.editions, at: now.instant, spacing: spacing) }
        change.announced = warm
        if new.export != nil { change.export = .configuration }
        return (
            Reload(
                old: old, generation: snapshot.generation, added: added, removed: removed,
                artworkHostsChanged: artworkHostsChanged),
            change
        )
    }

    /// A reload was rejected with `message`: the configuration in force stays (no answer changes), and Status
    /// shows why.
    mutating func rejectReload(_ message: String) -> StateChange {
        lastReloadError = message
        return .none
    }
}
