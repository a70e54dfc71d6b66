import FoundationEssentials
import ShowcaseConfig
import ShowcaseCore
import ShowcaseHistory

/// One page of `Roster.Changes`, as the overlay shows it now.
struct ChangesPage: Sendable {
    /// The storefront asked about.
    var storefront: Storefront
    /// The host whose history it is.
    var host: String
    /// The newest serial recorded (0 when none).
    var latest: Int
    /// The entries, newest first, overlay and attribution applied.
    var entries: [HistoryEntry]
    /// Whether newer entries than the newest of ``entries`` match but were left out (past `limit`).
    var more = false
}

extension RosterService {
    /// The changes `host` sees in `storefront`'s default roster: those after `since`, at most `limit`, newest
    /// first. A storefront outside the warm set has no history kept: latest 0, nothing, and nothing is fetched.
    func changes(
        storefront: Storefront, host: HostConfiguration, since: Int?, limit: Int, snapshot: ConfigSnapshot
    ) -> ChangesPage {
        guard state.isWarm(storefront) else {
            return ChangesPage(storefront: storefront, host: host.bundleID, latest: 0, entries: [])
        }
        let edition = snapshot.configuration.edition(of: storefront, locale: nil)
        let reading = history.reading(
            HistoryKey(host: host.bundleID, edition: edition), keep: snapshot.configuration.historyKeep,
            urlRules: snapshot.configuration.lookup.urlRules)
        let shown = shownEntries(reading.entries, host: host, snapshot: snapshot)
        return ChangesPage(
            storefront: storefront, host: host.bundleID, latest: reading.latest,
            entries: shown.page(since: since, limit: limit), more: shown.pageLeavesNewer(since: since, limit: limit))
    }

    /// `entries` of `host`'s history as its overlay shows them now (the host app by its resolved identity, or
    /// `hosts[].app_id` before that): what `Changes` and the Atom feeds show.
    func shownEntries(
        _ entries: [HistoryEntry], host: HostConfiguration, snapshot: ConfigSnapshot,
        on surface: AttributionSurface = .varlink
    ) -> [HistoryEntry] {
        entries.shown(
            overlay: host.overlay, attribution: snapshot.configuration.attribution, hostBundleId: host.bundleID,
            hostTrackId: state.identity(host.bundleID)?.trackId ?? host.appID, on: surface)
    }
}
