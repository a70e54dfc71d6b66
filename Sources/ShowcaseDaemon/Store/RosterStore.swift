import FoundationEssentials
import Locking
import ShowcaseCore
import Synchronization

/// What the daemon knows, in memory: each host's identity and each (developer, storefront, language) roster
/// record (roster, fetch time, last error, revision).
///
/// At startup the store holds only the cache's listing (each roster file's header): readiness must not wait for
/// 175 rosters to decode. A listed roster is decoded the first time anything needs it — a query, Status, a
/// refresh outcome, or the background pass after READY — so a query never sees `warming` for a roster that
/// is on disk. A listed file that turns out unusable is a miss: the store forgets it and reports the
/// storefront, so the daemon refetches it.
///
/// Rosters are stored raw — filtering, overlay and attribution are applied per query — so a reload or a
/// different query never needs a refetch. A change to one storefront bumps that storefront's
/// ``StorefrontStamp``; a change that can affect every storefront (identities, cache load) bumps `stamp`. The
/// reply cache compares both (one atomic load each) to know its encoded replies are still current.
public final class RosterStore: Sendable {
    /// Identifies one roster: a developer in a storefront, in one language when the storefront has several.
    struct Key: Hashable, Sendable {
        var artistId: Int
        var edition: StorefrontEdition

        init(artistId: Int, _ edition: StorefrontEdition) {
            self.artistId = artistId
            self.edition = edition
        }
    }

    struct State: Sendable {
        var identities: [String: HostIdentity] = [:]
        /// The last identity failure per host and storefront (cleared when the identity resolves).
        var identityFailures: [String: [Storefront: LookupError]] = [:]
        /// Each roster record; written through ``setRecord(_:for:)`` only, which keeps ``latestRoster`` in step.
        private(set) var records: [Key: RosterRecord] = [:]
        /// How the last refresh of each edition ended (nil: succeeded or never ran), for Status.
        var lastRefreshError: [StorefrontEdition: LookupError] = [:]
        var cacheWriteError: [StorefrontEdition: String] = [:]
        /// Rosters listed in the cache at startup and not decoded yet. A key is here or in `records`, never
        /// both: decoding moves it.
        var listed: [Key: FileCache.Entry] = [:]
        /// Where `listed` rosters are decoded from.
        var cache: FileCache?
        /// The URL rules a `listed` roster must pass when it is decoded: the current configuration's, read at
        /// decode time, so a file written under other `lookup.artwork_hosts` obeys today's.
        var urlRules: @Sendable () -> URLRules = { .standard }

        /// Per developer, the roster decoded or fetched last (a key whose record has a roster).
        private(set) var latestRoster: [Int: Key] = [:]

        /// Sets the record of `key`, keeping `latestRoster` in step.
        mutating func setRecord(_ record: RosterRecord, for key: Key) {
            records[key] = record
            if record.roster != nil { latestRoster[key.artistId] = key }
        }

        /// A decoded roster of the same developer in another storefront or language, to share string storage
        /// with: the one decoded or fetched last. One lookup, not a walk over every record under the lock (with
        /// twenty developers × 173 storefronts, each decode walked thousands of records).
        func sibling(of key: Key) -> Roster? {
            guard let other = latestRoster[key.artistId], other != key else { return nil }
            return records[other]?.roster
        }
    }

    private let state = Lock(State())
    private let stampCounter = Atomic<Int>(0)
    private let storefrontStamps = Lock<[Storefront: StorefrontStamp]>([:])
    private let watchers = Lock<[UInt64: @Sendable (Storefront) -> Void]>([:])
    /// Per host bundle id, why it needs a look (Status `hosts`).
    private let hostWarnings = Lock<[String: String]>([:])
    private let nextWatcher = Atomic<UInt64>(1)
    private let unusableHandler = Lock<(@Sendable (StorefrontEdition) -> Void)?>(nil)

    /// An empty store; the daemon fills it from the cache listing at startup.
    public init() {}

    /// Increases on every change; cheap to read from any thread.
    public var stamp: Int { stampCounter.load(ordering: .acquiring) }

    /// The change counter of one storefront (created on first use; the same object for the process lifetime,
    /// so a cached reply can hold it and check it without any lookup).
    func stamp(for storefront: Storefront) -> StorefrontStamp {
        storefrontStamps.withLock { stamps in
            if let stamp = stamps[storefront] { return stamp }
            let stamp = StorefrontStamp()
            stamps[storefront] = stamp
            return stamp
        }
    }

    // MARK: Loading

    /// Seeds the store from the cache at startup: host identities, and the roster listing (headers only) of
    /// `cache`. Each listed roster becomes revision 1 when it is decoded, keeping only the apps `urlRules` (asked
    /// at each decode) allows.
    func load(
        identities: [HostIdentity], listed: [FileCache.Entry], from cache: FileCache,
        urlRules: @escaping @Sendable () -> URLRules = { .standard }
    ) {
        state.withLock { state in
            state.cache = cache
            state.urlRules = urlRules
            for identity in identities { state.identities[identity.bundleId] = identity }
            for entry in listed {
                let key = Key(artistId: entry.artistId, entry.edition)
                guard state.records[key]?.roster == nil else { continue }
                if let other = state.listed[key], other.fetchedAt >= entry.fetchedAt { continue }
                state.listed[key] = entry
            }
        }
        bump(nil)
    }

    /// Calls `handler` (on the decoding thread; keep it short) for each listed roster whose file turns out
    /// unusable when decoded: that edition now has nothing cached and should be fetched soon.
    func onUnusableCacheFile(_ handler: @escaping @Sendable (StorefrontEdition) -> Void) {
        unusableHandler.withLock { $0 = handler }
    }

    /// How many listed rosters are still undecoded.
    var undecodedCount: Int { state.withLock { $0.listed.count } }

    /// Decodes the roster listed for (`artistId`, `edition`) now, if it still is only listed. The refresher
    /// calls this before it overwrites that cache file, so the roster a refresh is compared with (and falls back
    /// to) is the one that was on disk, not the file it is about to write.
    func decodeListed(artistId: Int, edition: StorefrontEdition) {
        decodeIfListed(Key(artistId: artistId, edition))
    }

    /// Decodes every listed roster that nothing has needed yet, one at a time and without holding the lock
    /// while decoding, so queries keep being answered meanwhile. Returns how many turned out unusable.
    @discardableResult
    func decodeListed() -> Int {
        let keys = state.withLock { Array($0.listed.keys) }
        return keys.reduce(0) { unusable, key in unusable + (decodeIfListed(key) == false ? 1 : 0) }
    }

    /// Decodes the roster listed for `key`, if it still is. Returns nil when there was nothing to do (never
    /// listed, or already decoded by another thread), true when it was installed, false when the file was
    /// unusable. Two threads may decode the same key at once; the first to finish installs it and the other's
    /// work is dropped, so no reader ever sees the key as neither listed nor decoded.
    @discardableResult
    private func decodeIfListed(_ key: Key) -> Bool? {
        guard
            let (entry, cache, reference, urlRules) = state.withLock({ state in
                state.listed[key].map { ($0, state.cache, state.sibling(of: key), state.urlRules) }
            }),
            let cache
        else { return nil }
        let roster = cache.loadRoster(listed: entry, sharingWith: reference, urlRules: urlRules())
        let installed = state.withLock { state -> Bool in
            guard state.listed[key] == entry else { return false }
            state.listed[key] = nil
            if let roster, state.records[key] == nil { state.setRecord(RosterRecord(roster: roster), for: key) }
            return true
        }
        guard installed else { return nil }
        if roster == nil { unusableHandler.withLock { $0 }?(key.edition) }
        return roster != nil
    }

    // MARK: Reading

    /// Every resolved identity by bundle id.
    var identities: [String: HostIdentity] { state.withLock { $0.identities } }

    /// The identity of `bundleID`, if resolved.
    func identity(_ bundleID: String) -> HostIdentity? { state.withLock { $0.identities[bundleID] } }

    /// What a query for `host` in `edition` should answer at `now`, and the revision it corresponds to.
    /// A roster still only listed from the cache is decoded first (outside the lock), never answered as warming.
    func answer(host: String, edition: StorefrontEdition, now: Date, lifetime: Duration)
        -> (answer: RosterAnswer, revision: Int, identity: HostIdentity?)
    {
        let storefront = edition.storefront
        while true {
            let step = state.withLock { state -> AnswerStep in
                guard let identity = state.identities[host] else {
                    if let failure = state.identityFailures[host]?[storefront] {
                        return .answer(failure.isTransport ? .unavailable(failure) : .failed(failure), -1, nil)
                    }
                    return .answer(.warming, 0, nil)
                }
                let key = Key(artistId: identity.artistId, edition)
                if state.listed[key] != nil { return .decodeFirst(key) }
                let record = state.records[key] ?? RosterRecord()
                return .answer(record.answer(now: now, lifetime: lifetime), record.revision, identity)
            }
            switch step {
            case .answer(let answer, let revision, let identity): return (answer, revision, identity)
            case .decodeFirst(let key): decodeIfListed(key)
            }
        }
    }

    /// One pass of ``answer(host:edition:now:lifetime:)`` under the lock.
    private enum AnswerStep {
        case answer(RosterAnswer, Int, HostIdentity?)
        /// The roster is only listed: decode it (outside the lock), then look again.
        case decodeFirst(Key)
    }

    /// The cached roster's fetch time for each edition where `artistIds` has one (the oldest wins); listed
    /// rosters count with their header's fetch time, undecoded. An edition where one of them is hidden by a
    /// diagnostic is left out: that roster is not served, so the edition is due for a refresh now, which is
    /// what clears the diagnostic once upstream recovers.
    func fetchTimes(artistIds: Set<Int>) -> [StorefrontEdition: Date] {
        state.withLock { state in
            var result: [StorefrontEdition: Date] = [:]
            var diagnosed: Set<StorefrontEdition> = []
            func note(_ key: Key, _ fetchedAt: Date) {
                guard artistIds.contains(key.artistId) else { return }
                result[key.edition] = min(result[key.edition] ?? fetchedAt, fetchedAt)
            }
            for (key, record) in state.records where artistIds.contains(key.artistId) {
                if record.diagnostic != nil { diagnosed.insert(key.edition) }
                if let fetchedAt = record.roster?.fetchedAt { note(key, fetchedAt) }
            }
            for (key, entry) in state.listed { note(key, entry.fetchedAt) }
            return result.filter { !diagnosed.contains($0.key) }
        }
    }

    /// How the last refresh of `edition` failed, if it did.
    func lastRefreshError(_ edition: StorefrontEdition) -> LookupError? {
        state.withLock { $0.lastRefreshError[edition] }
    }

    // MARK: Writing

    func setIdentity(_ identity: HostIdentity) {
        state.withLock { state in
            state.identities[identity.bundleId] = identity
            state.identityFailures[identity.bundleId] = nil
        }
        bump(nil)
    }

    /// Records a failed identity lookup. A transport failure does not replace a diagnostic
    /// (`HostAppNotFound`, a malformed body): only a success proves upstream is sound again.
    func recordIdentityFailure(host: String, storefront: Storefront, _ error: LookupError) {
        state.withLock { state in
            if error.isTransport, state.identityFailures[host]?[storefront]?.isTransport == false { return }
            state.identityFailures[host, default: [:]][storefront] = error
        }
        bump(storefront)
    }

    /// Records a roster refresh outcome; returns true when the revision changed.
    @discardableResult
    func record(artistId: Int, edition: StorefrontEdition, _ outcome: Result<Roster, LookupError>) -> Bool {
        let key = Key(artistId: artistId, edition)
        // The listed roster is the one this outcome is compared with (same content: no new revision) and the
        // one a transport failure keeps serving.
        decodeIfListed(key)
        // Share string storage with the roster it replaces (or a sibling storefront's): see Roster+SharedStorage.
        let outcome = outcome.map { fetched in
            fetched.compacted().sharingStorage(
                with: state.withLock { $0.records[key]?.roster ?? $0.sibling(of: key) })
        }
        let changed = state.withLock { state in
            var record = state.records[key] ?? RosterRecord()
            let changed = record.record(outcome)
            state.setRecord(record, for: key)
            return changed
        }
        bump(edition.storefront)
        return changed
    }

    /// Records the edition's last refresh error for Status (nil: the refresh succeeded). A transport failure
    /// does not replace a diagnostic: `Roster.Get` keeps answering the diagnostic until a refresh succeeds, and
    /// Status must keep showing the same thing rather than the latest timeout.
    func setLastRefreshError(_ edition: StorefrontEdition, _ error: LookupError?) {
        state.withLock { state in
            if let error, error.isTransport, let current = state.lastRefreshError[edition], !current.isTransport {
                return
            }
            state.lastRefreshError[edition] = error
        }
    }

    /// Records why the edition's last refresh could not write its roster to the cache (nil: it could), for
    /// Status. The roster fetched is served from memory all the same.
    func setCacheWriteError(_ edition: StorefrontEdition, _ message: String?) {
        state.withLock { $0.cacheWriteError[edition] = message }
    }

    /// Why the edition's last refresh could not write its roster to the cache, if it could not.
    func cacheWriteError(_ edition: StorefrontEdition) -> String? {
        state.withLock { $0.cacheWriteError[edition] }
    }

    // MARK: Watching

    /// Calls `onChange` (on the mutating thread; keep it short) after every change touching a storefront.
    func watch(_ onChange: @escaping @Sendable (Storefront) -> Void) -> UInt64 {
        let id = nextWatcher.wrappingAdd(1, ordering: .relaxed).oldValue
        watchers.withLock { $0[id] = onChange }
        return id
    }

    /// Tells every watcher that `storefronts` may answer differently without a store change (a reload changed the
    /// overlay or attribution); each watcher compares what it would send with what it sent.
    func announce(_ storefronts: some Sequence<Storefront>) {
        let callbacks = watchers.withLock { Array($0.values) }
        for storefront in storefronts {
            for callback in callbacks { callback(storefront) }
        }
    }

    /// Records why a host needs a look (a transfer, an app the store no longer knows), or clears it with nil.
    func setHostWarning(_ host: String, _ warning: String?) {
        hostWarnings.withLock { $0[host] = warning }
    }

    /// The host's current warning, for Status.
    func hostWarning(_ host: String) -> String? { hostWarnings.withLock { $0[host] } }

    func unwatch(_ id: UInt64) { _ = watchers.withLock { $0.removeValue(forKey: id) } }

    private func bump(_ storefront: Storefront?) {
        guard let storefront else {
            stampCounter.wrappingAdd(1, ordering: .releasing)
            return
        }
        stamp(for: storefront).bump()
        let callbacks = watchers.withLock { Array($0.values) }
        for callback in callbacks { callback(storefront) }
    }
}
