import FoundationEssentials
import ShowcaseCore

extension StateOwner {
    // MARK: Reading

    /// Every resolved identity by bundle id.
    var identities: [String: HostIdentity] { read { $0.rosters.identities } }

    /// The identity of `bundleID`, if resolved.
    func identity(_ bundleID: String) -> HostIdentity? { read { $0.rosters.identities[bundleID] } }

    /// The host's current warning, for Status.
    func hostWarning(_ bundleID: String) -> String? { read { $0.rosters.hostWarnings[bundleID] } }

    /// How the last refresh of `edition` failed, if it did.
    func lastRefreshError(_ edition: StorefrontEdition) -> LookupError? {
        read { $0.rosters.lastRefreshError[edition] }
    }

    /// Why the edition's last refresh could not write its roster to the cache, if it could not.
    func cacheWriteError(_ edition: StorefrontEdition) -> String? { read { $0.rosters.cacheWriteError[edition] } }

    /// The storefronts kept warm.
    var warm: Set<Storefront> { read { $0.warm } }

    /// Whether `storefront` is kept warm.
    func isWarm(_ storefront: Storefront) -> Bool { read { $0.isWarm(storefront) } }

    // MARK: Refresh outcomes

    /// Records a roster refresh outcome for `artistId` in `edition`; returns true when the revision changed. The
    /// listed roster is decoded first: it is the one this outcome is compared with (same content: no new
    /// revision) and the one a transport failure keeps serving. A fetched roster shares string storage with the
    /// roster it replaces, or a sibling storefront's (see Roster+SharedStorage).
    @discardableResult
    func record(artistId: Int, edition: StorefrontEdition, _ outcome: Result<Roster, LookupError>) -> Bool {
        let key = RosterBook.Key(artistId: artistId, edition)
        decodeListed(artistId: artistId, edition: edition)
        let outcome = outcome.map { fetched in
            fetched.compacted().sharingStorage(with: read { $0.rosters.storageReference(for: key) })
        }
        return update { state, _ in state.record(outcome, for: key) }
    }

    /// Takes `identity` as its host's; returns how the host's identity changed.
    @discardableResult
    func resolved(_ identity: HostIdentity) -> RosterBook.IdentityChange {
        update { state, _ in state.resolved(identity) }
    }

    /// Records a failed identity lookup.
    func recordIdentityFailure(host: String, storefront: Storefront, _ error: LookupError) {
        update { state, _ in state.recordIdentityFailure(host: host, storefront: storefront, error) }
    }
}
