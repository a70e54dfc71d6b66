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
    /// The language of the roster answered; nil for a storefront fetched without one.
    var language: String?
    /// For a storefront with languages: each language's roster and its newest serial, in the configured order.
    var languages: [(language: String, latest: Int)] = []
}

/// `Roster.Changes` and the feeds' entries: a host's history as its overlay shows it now, read from the history's
/// copy in memory. Built from the two parts it reads: the state (warm set, host identities) and the history.
struct ChangesReader: Sendable {
    /// The daemon's state and its one owner.
    let state: StateOwner
    /// The change history under `state.directory`.
    let history: HistoryRecorder
}

extension ChangesReader {
    /// The changes `host` sees in the roster of `storefront` that `locale` picks (as `Get`'s does: the configured
    /// language matching its language subtag, else the storefront's default): those after `since`, at most
    /// `limit`, newest first. For a storefront with languages the page also lists each language's newest serial,
    /// so a client asking the default language can tell that another one has entries. A storefront outside the
    /// warm set has no history kept: latest 0, nothing, and nothing is fetched.
    func changes(
        storefront: Storefront, host: HostConfiguration, since: Int?, limit: Int, locale: String? = nil,
        snapshot: ConfigSnapshot
    ) -> ChangesPage {
        let configuration = snapshot.configuration
        let edition = configuration.edition(of: storefront, locale: locale)
        guard state.isWarm(storefront) else {
            return ChangesPage(
                storefront: storefront, host: host.bundleID, latest: 0, entries: [], language: edition.language?.code)
        }
        func reading(_ edition: StorefrontEdition) -> HistoryReading {
            history.reading(
                HistoryKey(host: host.bundleID, edition: edition), keep: configuration.historyKeep,
                urlRules: configuration.lookup.urlRules)
        }
        let answered = reading(edition)
        let shown = shownEntries(answered.entries, host: host, snapshot: snapshot)
        let editions = configuration.editions(of: storefront)
        let languages =
            editions.count > 1
            ? editions.compactMap { other in
                other.language.map { ($0.code, other == edition ? answered.latest : reading(other).latest) }
            } : []
        return ChangesPage(
            storefront: storefront, host: host.bundleID, latest: answered.latest,
            entries: shown.page(since: since, limit: limit), more: shown.pageLeavesNewer(since: since, limit: limit),
            language: edition.language?.code, languages: languages)
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
