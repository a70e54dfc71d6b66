import Foundation
import ShowcaseCore
import Synchronization

/// What the daemon knows, in memory: each host's identity and each (developer, storefront) roster record
/// (roster, fetch time, last error, revision).
///
/// Rosters are stored raw — filtering, overlay and attribution are applied per query — so a reload or a
/// different query never needs a refetch. A change to one storefront bumps that storefront's
/// ``StorefrontStamp``; a change that can affect every storefront (identities, cache load) bumps `stamp`. The
/// (one atomic load) to know its encoded replies are still current.
public final class RosterStore: Sendable {
    /// Identifies one roster: a developer in a storefront.
    struct Key: Hashable, Sendable {
        var artistId: Int
        var storefront: Storefront
    }

    struct State: Sendable {
        var identities: [String: HostIdentity] = [:]
        /// The last identity failure per host and storefront (cleared when the identity resolves).
        var identityFailures: [String: [Storefront: LookupError]] = [:]
        var records: [Key: RosterRecord] = [:]
        /// How the last refresh of each storefront ended (nil: succeeded or never ran), for Status.
        var lastRefreshError: [Storefront: LookupError] = [:]
    }

    private let state = Mutex(State())
    private let stampCounter = Atomic<Int>(0)
    private let storefrontStamps = Mutex<[Storefront: StorefrontStamp]>([:])
    private let watchers = Mutex<[UInt64: @Sendable (Storefront) -> Void]>([:])
    private let nextWatcher = Atomic<UInt64>(1)

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

    /// Seeds the store from the cache at startup (no revision semantics: these are revision 1).
    func load(identities: [HostIdentity], rosters: [Roster]) {
        state.withLock { state in
            for identity in identities { state.identities[identity.bundleId] = identity }
            for roster in rosters {
                let key = Key(artistId: roster.artistId, storefront: roster.storefront)
                if let existing = state.records[key]?.roster, existing.fetchedAt >= roster.fetchedAt { continue }
                state.records[key] = RosterRecord(roster: roster.compacted())
            }
        }
        bump(nil)
    }

    // MARK: Reading

    /// Every resolved identity by bundle id.
    var identities: [String: HostIdentity] { state.withLock { $0.identities } }

    /// The identity of `bundleID`, if resolved.
    func identity(_ bundleID: String) -> HostIdentity? { state.withLock { $0.identities[bundleID] } }

    /// What a query for `host` in `storefront` should answer at `now`, and the revision it corresponds to.
    func answer(host: String, storefront: Storefront, now: Date, lifetime: Duration)
        -> (answer: RosterAnswer, revision: Int, identity: HostIdentity?)
    {
        state.withLock { state in
            guard let identity = state.identities[host] else {
                if let failure = state.identityFailures[host]?[storefront] {
                    return (failure.isTransport ? .unavailable(failure) : .failed(failure), -1, nil)
                }
                return (.warming, 0, nil)
            }
            let record = state.records[Key(artistId: identity.artistId, storefront: storefront)] ?? RosterRecord()
            return (record.answer(now: now, lifetime: lifetime), record.revision, identity)
        }
    }

    /// The cached roster's fetch time for each storefront where `artistIds` has one (the oldest wins). A
    /// storefront where one of them is hidden by a diagnostic is left out: that roster is not served, so the
    /// storefront is due for a refresh now, which is what clears the diagnostic once upstream recovers.
    func fetchTimes(artistIds: Set<Int>) -> [Storefront: Date] {
        state.withLock { state in
            var result: [Storefront: Date] = [:]
            var diagnosed: Set<Storefront> = []
            for (key, record) in state.records where artistIds.contains(key.artistId) {
                if record.diagnostic != nil { diagnosed.insert(key.storefront) }
                guard let fetchedAt = record.roster?.fetchedAt else { continue }
                result[key.storefront] = min(result[key.storefront] ?? fetchedAt, fetchedAt)
            }
            return result.filter { !diagnosed.contains($0.key) }
        }
    }

    /// How the last refresh of `storefront` failed, if it did.
    func lastRefreshError(_ storefront: Storefront) -> LookupError? {
        state.withLock { $0.lastRefreshError[storefront] }
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
    func record(artistId: Int, storefront: Storefront, _ outcome: Result<Roster, LookupError>) -> Bool {
        let changed = state.withLock { state in
            let key = Key(artistId: artistId, storefront: storefront)
            var record = state.records[key] ?? RosterRecord()
            let changed = record.record(outcome.map { $0.compacted() })
            state.records[key] = record
            return changed
        }
        bump(storefront)
        return changed
    }

    func setLastRefreshError(_ storefront: Storefront, _ error: LookupError?) {
        state.withLock { $0.lastRefreshError[storefront] = error }
    }

    // MARK: Watching

    /// Calls `onChange` (on the mutating thread; keep it short) after every change touching a storefront.
    func watch(_ onChange: @escaping @Sendable (Storefront) -> Void) -> UInt64 {
        let id = nextWatcher.wrappingAdd(1, ordering: .relaxed).oldValue
        watchers.withLock { $0[id] = onChange }
        return id
    }

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
