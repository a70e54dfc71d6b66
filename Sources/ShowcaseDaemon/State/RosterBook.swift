import FoundationEssentials
import ShowcaseCore

/// What the daemon knows of hosts and rosters, as a part of ``DaemonState``: each host's identity and each
/// (developer, storefront, language) roster record (roster, fetch time, last error, revision).
///
/// At startup it holds only the cache's listing (each roster file's header): readiness must not wait for 175
/// rosters to decode. A listed roster is decoded the first time anything needs it — a query, Status, a refresh
/// outcome, or the background pass after READY — so a query never sees `warming` for a roster that is on disk.
/// A listed file that turns out unusable is a miss: it leaves the listing, and the daemon refetches it.
///
/// Rosters are kept raw — filtering, overlay and attribution are applied per query — so a reload or a different
/// query never needs a refetch.
struct RosterBook: Sendable {
    /// Identifies one roster: a developer in a storefront, in one language when the storefront has several.
    struct Key: Hashable, Sendable {
        /// The developer.
        var artistId: Int
        /// The storefront and language.
        var edition: StorefrontEdition

        /// The key of `artistId`'s roster in `edition`.
        init(artistId: Int, _ edition: StorefrontEdition) {
            self.artistId = artistId
            self.edition = edition
        }
    }

    /// How a host's identity changed when it was resolved (``resolved(_:)``).
    enum IdentityChange: Sendable, Equatable {
        /// Resolved for the first time.
        case first
        /// The same developer as before.
        case same
        /// The app now belongs to another developer (it was transferred): served from that developer's rosters.
        case transferred(from: Int)
    }

    /// Every resolved identity by bundle id.
    private(set) var identities: [String: HostIdentity] = [:]
    /// The last identity failure per host and storefront (cleared when the identity resolves).
    private(set) var identityFailures: [String: [Storefront: LookupError]] = [:]
    /// Each roster record; written through ``setRecord(_:for:)`` only, which keeps ``latestRoster`` in step.
    private(set) var records: [Key: RosterRecord] = [:]
    /// How the last refresh of each edition ended (nil: succeeded or never ran), for Status.
    private(set) var lastRefreshError: [StorefrontEdition: LookupError] = [:]
    /// Why the last refresh of each edition could not write its cache file, for Status.
    private(set) var cacheWriteError: [StorefrontEdition: String] = [:]
    /// Per host bundle id, why it needs a look (Status `hosts`).
    private(set) var hostWarnings: [String: String] = [:]
    /// Rosters listed in the cache at startup and not decoded yet. A key is here or in `records`, never both:
    /// decoding moves it.
    private(set) var listed: [Key: FileCache.Entry] = [:]
    /// Per developer, the roster decoded or fetched last (a key whose record has a roster).
    private(set) var latestRoster: [Int: Key] = [:]

    // MARK: Reading

    /// What a query for `host` in `edition` gets at `now` for a freshness `lifetime`, or the listed roster to
    /// decode first (a roster on disk is never answered as warming).
    func answer(host: String, edition: StorefrontEdition, now: Date, lifetime: Duration) -> AnswerStep {
        guard let identity = identities[host] else {
            if let failure = identityFailures[host]?[edition.storefront] {
                return .answer(failure.isTransport ? .unavailable(failure) : .failed(failure), revision: -1, nil)
            }
            return .answer(.warming, revision: 0, nil)
        }
        let key = Key(artistId: identity.artistId, edition)
        if let entry = listed[key] { return .decodeFirst(key, entry) }
        let record = records[key] ?? RosterRecord()
        return .answer(record.answer(now: now, lifetime: lifetime), revision: record.revision, identity)
    }

    /// One step of answering a query.
    enum AnswerStep: Sendable {
        /// The answer, the record's revision (negative for an identity failure) and the host's identity.
        case answer(RosterAnswer, revision: Int, HostIdentity?)
        /// The roster is only listed: decode it (outside the lock), then ask again.
        case decodeFirst(Key, FileCache.Entry)
    }

    /// A decoded roster of the same developer in another storefront or language, to share string storage with:
    /// the one decoded or fetched last. One lookup, never a walk over every record.
    func sibling(of key: Key) -> Roster? {
        guard let other = latestRoster[key.artistId], other != key else { return nil }
        return records[other]?.roster
    }

    /// The roster a new one for `key` should share storage with: the one it replaces, else a sibling's.
    func storageReference(for key: Key) -> Roster? { records[key]?.roster ?? sibling(of: key) }

    /// The cached roster's fetch time for each edition where `artistIds` has one (the oldest wins); listed
    /// rosters count with their header's fetch time, undecoded. An edition where one of them is hidden by a
    /// diagnostic is left out: that roster is not served, so the edition is due for a refresh now, which is
    /// what clears the diagnostic once upstream recovers.
    func fetchTimes(artistIds: Set<Int>) -> [StorefrontEdition: Date] {
        var result: [StorefrontEdition: Date] = [:]
        var diagnosed: Set<StorefrontEdition> = []
        func note(_ key: Key, _ fetchedAt: Date) {
            guard artistIds.contains(key.artistId) else { return }
            result[key.edition] = min(result[key.edition] ?? fetchedAt, fetchedAt)
        }
        for (key, record) in records where artistIds.contains(key.artistId) {
            if record.diagnostic != nil { diagnosed.insert(key.edition) }
            if let fetchedAt = record.roster?.fetchedAt { note(key, fetchedAt) }
        }
        for (key, entry) in listed { note(key, entry.fetchedAt) }
        return result.filter { !diagnosed.contains($0.key) }
    }

    // MARK: Loading

    /// Adds the cache's `identities` and roster listing (headers only); a newer listing of a key wins, and a key
    /// already holding a roster keeps it.
    mutating func list(identities: [HostIdentity], listed entries: [FileCache.Entry]) {
        for identity in identities { self.identities[identity.bundleId] = identity }
        for entry in entries {
            let key = Key(artistId: entry.artistId, entry.edition)
            guard records[key]?.roster == nil else { continue }
            if let other = listed[key], other.fetchedAt >= entry.fetchedAt { continue }
            listed[key] = entry
        }
    }

    /// Installs the roster decoded from `entry` (nil: the file was unusable). Returns nil when `entry` is no
    /// longer what `key` lists (another thread decoded it first: its result stands), else whether a roster was
    /// installed.
    mutating func installDecoded(_ key: Key, from entry: FileCache.Entry, _ roster: Roster?) -> Bool? {
        guard listed[key] == entry else { return nil }
        listed[key] = nil
        guard let roster else { return false }
        if records[key] == nil { setRecord(RosterRecord(roster: roster), for: key) }
        return true
    }

    // MARK: Identities

    /// Takes `identity` as its host's, clearing its failures; a host that moved to another developer gets the
    /// warning Status shows, any other loses its warning.
    mutating func resolved(_ identity: HostIdentity) -> IdentityChange {
        let bundleID = identity.bundleId
        let known = identities[bundleID]
        identities[bundleID] = identity
        identityFailures[bundleID] = nil
        guard let known else {
            hostWarnings[bundleID] = nil
            return .first
        }
        guard known.artistId != identity.artistId else {
            hostWarnings[bundleID] = nil
            return .same
        }
        hostWarnings[bundleID] =
            "\(bundleID) moved from developer \(known.artistId) to developer \(identity.artistId) "
            + "(the app was transferred); serving the new developer's roster from now on"
        return .transferred(from: known.artistId)
    }

    /// A known host's re-resolution in `storefront` ended in a diagnostic (`error`): its identity stays in use —
    /// the developer's other apps are still real — checked again one interval after `now`, with a warning.
    mutating func reresolutionFailed(_ bundleID: String, in storefront: Storefront, _ error: LookupError, at now: Date)
    {
        guard var known = identities[bundleID] else { return }
        known.resolvedAt = now
        identities[bundleID] = known
        hostWarnings[bundleID] =
            "the store no longer knows \(bundleID) in \(storefront) (\(error)); still serving developer "
            + "\(known.artistId)'s last roster: check hosts[].bundle_id or the app's availability"
    }

    /// Records a failed identity lookup. A transport failure does not replace a diagnostic (`HostAppNotFound`, a
    /// malformed body): only a success proves upstream is sound again.
    mutating func recordIdentityFailure(host: String, storefront: Storefront, _ error: LookupError) {
        if error.isTransport, identityFailures[host]?[storefront]?.isTransport == false { return }
        identityFailures[host, default: [:]][storefront] = error
    }

    // MARK: Rosters

    /// Records a refresh outcome for `key` (a fetched roster already compacted and sharing storage); returns
    /// true when the revision changed.
    mutating func record(_ outcome: Result<Roster, LookupError>, for key: Key) -> Bool {
        var record = records[key] ?? RosterRecord()
        let changed = record.record(outcome)
        setRecord(record, for: key)
        return changed
    }

    /// Records the edition's last refresh error for Status (nil: the refresh succeeded). A transport failure does
    /// not replace a diagnostic: `Roster.Get` keeps answering the diagnostic until a refresh succeeds, and Status
    /// must keep showing the same thing rather than the latest timeout.
    mutating func setLastRefreshError(_ edition: StorefrontEdition, _ error: LookupError?) {
        if let error, error.isTransport, let current = lastRefreshError[edition], !current.isTransport { return }
        lastRefreshError[edition] = error
    }

    /// Records why the edition's last refresh could not write its roster to the cache (nil: it could).
    mutating func setCacheWriteError(_ edition: StorefrontEdition, _ message: String?) {
        cacheWriteError[edition] = message
    }

    /// Sets the record of `key`, keeping `latestRoster` in step.
    mutating func setRecord(_ record: RosterRecord, for key: Key) {
        records[key] = record
        if record.roster != nil { latestRoster[key.artistId] = key }
    }
}
