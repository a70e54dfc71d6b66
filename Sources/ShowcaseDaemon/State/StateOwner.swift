import FoundationEssentials
import Locking
import ShowcaseConfig
import ShowcaseCore
import Synchronization

/// The one owner of the running daemon's state: the one live ``DaemonState``, behind one lock, and the versions it
/// publishes so copies of answers know when they stop holding.
///
/// Every change goes through ``update(_:)-(_)``: the transition runs under the lock, the versions of what it
/// changed are bumped in the same critical section, and what it asks for (``StateChange``) is carried out after
/// the lock is released — watchers told, the refresh worker woken, waits and `Admin.Export` calls answered, the
/// exporter woken. Nothing else holds state of its own: the scheduler keeps only its worker and the callers it has
/// to resume, the caches of encoded answers only copies checked against ``version`` (``AnswerVersion``).
final class StateOwner: Sendable {
    /// Who acts on a ``StateChange``, outside the lock. Set up once, before the daemon serves.
    struct Observers: Sendable {
        /// Told about every storefront whose answers may differ (roster changes and reload announcements).
        var rostersChanged: [@Sendable (Storefront) -> Void] = []
        /// Told that the refresh queue changed, with the editions that left it.
        var queueChanged: (@Sendable (_ forgotten: [StorefrontEdition]) -> Void)?
        /// Told that the export schedule changed (``DaemonState/exportSchedule``): the exporter looks again.
        var exportScheduleChanged: (@Sendable () -> Void)?
        /// Told about each listed cache file found unusable when decoded.
        var unusable: (@Sendable (StorefrontEdition) -> Void)?
        /// Handed the icon downloads to start (``IconBook``): the ``IconFetcher`` performs them.
        var iconDownloads: (@Sendable ([IconBook.Download]) -> Void)?
    }

    /// What answering a query found: the store's answer, its revision, the host's identity, and the versions it
    /// was computed from.
    struct Answer: Sendable {
        /// What the query gets, before filtering.
        var answer: RosterAnswer
        /// The record's revision (negative for an identity failure).
        var revision: Int
        /// The host's identity, when resolved.
        var identity: HostIdentity?
        /// What the answer was computed from (its `expires` is set by whoever knows the freshness lifetime).
        var version: AnswerVersion
    }

    private struct Guarded {
        var state: DaemonState
        /// Each storefront's counter, created on first use and kept for the process lifetime, so a copy of an
        /// answer can hold it.
        var stamps: [Storefront: StorefrontStamp] = [:]
        var observers = Observers()

        mutating func stamp(_ storefront: Storefront) -> StorefrontStamp {
            if let stamp = stamps[storefront] { return stamp }
            let stamp = StorefrontStamp()
            stamps[storefront] = stamp
            return stamp
        }
    }

    private let guarded: Lock<Guarded>
    private let published = Atomic<Int>(0)
    /// The cache, fixed at startup (`cache.directory` or `--cache-dir`; a reload does not move it).
    let cache: FileCache
    /// The daemon's one clock.
    let clock: any ShowcaseClock
    /// Jitter draws (0...1) for the refresh schedule.
    private let jitter: @Sendable () -> Double
    private let makeTransport: @Sendable (Configuration) -> any LookupTransport

    /// The state of a daemon started with `configuration` (generation 1), whose snapshots get their transport
    /// from `transport`.
    init(
        _ configuration: Configuration, cache: FileCache,
        transport: @escaping @Sendable (Configuration) -> any LookupTransport, clock: any ShowcaseClock,
        jitter: @escaping @Sendable () -> Double
    ) {
        let snapshot = ConfigSnapshot(configuration: configuration, generation: 1, transport: transport(configuration))
        guarded = Lock(Guarded(state: DaemonState(config: snapshot)))
        self.cache = cache
        self.clock = clock
        self.jitter = jitter
        makeTransport = transport
    }

    // MARK: Reading

    /// The configuration in force.
    var config: ConfigSnapshot { guarded.withLock { $0.state.config } }

    /// Bumped by every change that may alter every answer; one atomic load.
    var version: Int { published.load(ordering: .acquiring) }

    /// `body`'s reading of the state now.
    func read<Result>(_ body: (borrowing DaemonState) -> Result) -> Result {
        guarded.withLock { body($0.state) }
    }

    /// The current moment on the daemon's clock.
    var moment: RefreshQueue.Moment { RefreshQueue.Moment(clock) }

    // MARK: Changing

    /// Runs `transition` on the state under the lock and carries out the change it returns; returns its result.
    @discardableResult
    func update<Result>(
        _ transition: (inout DaemonState, _ draw: @escaping @Sendable () -> Double) -> (Result, StateChange)
    ) -> Result {
        let jitter = self.jitter
        let clock = self.clock
        let (result, change, observers) = guarded.withLock { guarded in
            var (result, change) = transition(&guarded.state, jitter)
            // A reason to export goes to the schedule at once, so the exporter's next look finds it.
            if let reason = change.export { change.merge(guarded.state.exportWanted(reason, at: clock.instant)) }
            if change.everything { published.wrappingAdd(1, ordering: .releasing) }
            for storefront in change.storefronts { guarded.stamp(storefront).bump() }
            return (result, change, guarded.observers)
        }
        carry(out: change, observers)
        return result
    }

    /// Runs `transition` on the state under the lock and carries out the change it returns.
    func update(_ transition: (inout DaemonState, _ draw: @escaping @Sendable () -> Double) -> StateChange) {
        update { state, draw in ((), transition(&state, draw)) }
    }

    /// Changes the observers (at startup).
    func observe(_ change: (inout Observers) -> Void) { guarded.withLock { change(&$0.observers) } }

    /// Installs `configuration` as the next generation at the current moment (``DaemonState/reload(to:at:draw:)``).
    func reload(to configuration: Configuration) -> DaemonState.Reload {
        let transport = makeTransport(configuration)
        let now = moment
        return update { state, draw in
            let snapshot = ConfigSnapshot(
                configuration: configuration, generation: state.config.generation + 1, transport: transport)
            return state.reload(to: snapshot, at: now, draw: draw)
        }
    }

    private func carry(out change: StateChange, _ observers: Observers) {
        for ending in change.endedWaits { ending.carryOut() }
        for reply in change.exportReplies { reply.send() }
        for storefront in change.storefronts.union(change.announced) {
            for observer in observers.rostersChanged { observer(storefront) }
        }
        if change.queueChanged || !change.forgotten.isEmpty { observers.queueChanged?(change.forgotten) }
        for edition in change.unusable { observers.unusable?(edition) }
        if change.exportScheduleChanged { observers.exportScheduleChanged?() }
        for waiter in change.iconsSettled { waiter.resume() }
        if !change.iconDownloads.isEmpty { observers.iconDownloads?(change.iconDownloads) }
        for waiter in change.resumed { waiter.resume() }
    }

    // MARK: Answering

    /// What a query for `host` in `edition` gets at `now`, resolved under `snapshot` (its `refresh.interval` is
    /// the freshness lifetime), with the versions it was computed from, read under the same lock. An answer for a
    /// snapshot no longer in force gets a version that never holds. A roster still only listed from the cache is
    /// decoded first, outside the lock: never answered as warming.
    func answer(host: String, edition: StorefrontEdition, now: Date, under snapshot: ConfigSnapshot) -> Answer {
        let lifetime = snapshot.schedule.interval
        while true {
            let (step, version) = guarded.withLock { guarded in
                let stamp = guarded.stamp(edition.storefront)
                let current = guarded.state.config.generation == snapshot.generation
                return (
                    guarded.state.rosters.answer(host: host, edition: edition, now: now, lifetime: lifetime),
                    AnswerVersion(
                        version: current ? published.load(ordering: .acquiring) : AnswerVersion.never,
                        storefront: stamp, storefrontValue: stamp.value)
                )
            }
            switch step {
            case .answer(let answer, let revision, let identity):
                return Answer(answer: answer, revision: revision, identity: identity, version: version)
            case .decodeFirst(let key, let entry): decode(key, entry)
            }
        }
    }

    // MARK: The cache listing

    /// How many listed rosters are still undecoded.
    var undecodedCount: Int { read { $0.rosters.listed.count } }

    /// Decodes the roster listed for (`artistId`, `edition`) now, if it still is only listed. The refresher calls
    /// this before it overwrites that cache file, so the roster a refresh is compared with (and falls back to) is
    /// the one that was on disk, not the file it is about to write.
    func decodeListed(artistId: Int, edition: StorefrontEdition) {
        let key = RosterBook.Key(artistId: artistId, edition)
        if let entry = read({ $0.rosters.listed[key] }) { decode(key, entry) }
    }

    /// Decodes every listed roster that nothing has needed yet, one at a time and without holding the lock while
    /// decoding, so queries keep being answered meanwhile. Returns how many turned out unusable.
    @discardableResult
    func decodeListed() -> Int {
        let listed = read { Array($0.rosters.listed) }
        return listed.reduce(0) { unusable, listing in unusable + (decode(listing.key, listing.value) == false ? 1 : 0)
        }
    }

    /// Decodes `entry`, listed for `key`, outside the lock, and installs it. Two threads may decode the same key
    /// at once; the first to finish installs it and the other's work is dropped, so no reader ever sees the key
    /// as neither listed nor decoded. Returns what ``DaemonState/installDecoded(_:from:_:at:)`` returns.
    @discardableResult
    private func decode(_ key: RosterBook.Key, _ entry: FileCache.Entry) -> Bool? {
        let (reference, urlRules) = read { ($0.rosters.sibling(of: key), $0.config.configuration.lookup.urlRules) }
        let roster = cache.loadRoster(listed: entry, sharingWith: reference, urlRules: urlRules)
        let now = clock.instant
        return update { state, _ in state.installDecoded(key, from: entry, roster, at: now) }
    }
}
