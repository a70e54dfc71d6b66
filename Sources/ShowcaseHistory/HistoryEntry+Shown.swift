import ShowcaseCore

extension Array where Element == HistoryEntry {
    /// The entries as a host's overlay shows them now (SPEC §15): an excluded app's and the host app's own
    /// entries left out, attribution applied to each `storeUrl`. Applied at read time, so a reload takes effect
    /// on the next call and the history itself never changes. `surface` picks the campaign token and product page
    /// (`varlink` for `Roster.Changes`, `feed` for the Atom feeds).
    public func shown(
        overlay: Overlay, attribution: Attribution, hostBundleId: String, hostTrackId: Int?,
        on surface: AttributionSurface = .varlink
    ) -> [HistoryEntry] {
        compactMap { entry in
            guard !overlay.excluded.contains(entry.id), entry.id != hostTrackId else { return nil }
            var shown = entry
            shown.storeUrl = attribution.apply(
                to: entry.storeUrl, platform: entry.platform, hostBundleId: hostBundleId, on: surface,
                productPage: overlay.productPage(of: entry.id, on: surface))
            return shown
        }
    }

    /// One page of entries (oldest first in `self`), newest first: those with a serial above `since` when given;
    /// when more than `limit` match, the newest `limit` without `since`, the oldest `limit` after it with one (so
    /// a client paging forward with the newest serial it got never skips an entry).
    public func page(since: Int?, limit: Int) -> [HistoryEntry] {
        let limit = Swift.max(0, limit)
        guard let since else { return Array(suffix(limit).reversed()) }
        return Array(lazy.filter { $0.serial > since }.prefix(limit).reversed())
    }

    /// Whether entries newer than the newest of ``page(since:limit:)`` exist that it left out: with `since`, when
    /// more than `limit` match (without it the page is the newest, so none are).
    public func pageLeavesNewer(since: Int?, limit: Int) -> Bool {
        guard let since else { return false }
        return lazy.filter { $0.serial > since }.dropFirst(Swift.max(0, limit)).first != nil
    }
}
