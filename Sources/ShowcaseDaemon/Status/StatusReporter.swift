import FoundationEssentials
import ShowcaseCore

/// What the daemon reports about itself: `Admin.Status`, systemd's `STATUS=` line, and (``health()``,
/// ``metrics(varlinkCalls:)``) `Roster.Health` and the metrics. Reads only — the state, the upstream's counters
/// and rate limiter, the history's problems, the exporter's icon counts — never changes anything and never asks
/// the network. Built once by the ``DaemonRuntime`` from those parts.
struct StatusReporter: Sendable {
    /// The daemon's state and its one owner.
    let state: StateOwner
    /// The daemon's one clock.
    let clock: any ShowcaseClock
    /// The upstream's counters and rate limiter (a throttle pause holds every next refresh back).
    let upstream: Upstream
    /// The change history (its problems are reported).
    let history: HistoryRecorder
    /// The export writer (its icon request counts are metrics).
    let exporter: Exporter
    /// Each warm roster as the default host sees it.
    let reader: RosterReader
    /// Where the configuration was read from (Status shows it).
    let configPath: String
    /// The export's line in Status (``ExportPlanner/exportStatus()``); nil without `export:`.
    let exportStatus: @Sendable () -> StatusReport.Export?

    /// Every warm roster (one row per storefront, or per language of a multilingual one) as the default host sees
    /// it, with the upstream counters and reload bookkeeping.
    func status() -> StatusReport {
        let snapshot = state.config
        let schedule = schedule()
        let storefronts = warmViews(under: snapshot).map { edition, view in
            // An unavailable or failed roster shows the error Get answers with, also while the refresh that
            // recorded it is still running (its other requests pending) and before it records its outcome.
            StatusReport.Storefront(
                storefront: edition.storefront, language: edition.language, state: view.state,
                apps: view.servedCount, fetchedAt: view.fetchedAt, nextRefreshAt: schedule[edition],
                lastError: view.problem ?? state.lastRefreshError(edition),
                cacheWriteError: state.cacheWriteError(edition), droppedRows: view.roster?.droppedRows.count ?? 0,
                truncated: view.roster?.isTruncated ?? false)
        }
        return StatusReport(
            configPath: configPath, configGeneration: snapshot.generation, upstream: upstream.snapshot,
            storefronts: storefronts, lastReloadError: state.read { $0.lastReloadError },
            hosts: snapshot.configuration.hosts.map { host in
                let identity = state.identity(host.bundleID)
                return StatusReport.Host(
                    bundleID: host.bundleID, appID: identity?.trackId ?? host.appID, artistID: identity?.artistId,
                    warning: state.hostWarning(host.bundleID))
            }, export: exportStatus(), problems: history.problems())
    }

    /// Every warm roster under `snapshot` — one per storefront, or per language of a multilingual one, in order —
    /// as its first host sees it now; none without hosts. What Status and Health list.
    func warmViews(under snapshot: ConfigSnapshot) -> [(edition: StorefrontEdition, view: RosterView)] {
        guard let host = snapshot.configuration.hosts.first else { return [] }
        return state.warm.sorted().flatMap { storefront in
            snapshot.configuration.editions(of: storefront).map { edition in
                let request = RosterRequest(snapshot: snapshot, storefront: storefront, host: host, edition: edition)
                return (edition, reader.view(for: request, keepWarm: false))
            }
        }
    }

    /// Every warm edition's next refresh as wall-clock time (never before a throttle pause ends: it holds every
    /// request back).
    func schedule() -> [StorefrontEdition: Date] {
        let now = state.moment
        let pauseEnd = upstream.limiter.pause.map { clock.date(at: $0) }
        return state.read { $0.nextRefreshes(at: now, pauseEnd: pauseEnd) }
    }

    /// systemd's `STATUS=` line: how many warm storefronts are in each state ("3 storefronts: 2 fresh, 1 stale").
    func statusLine() -> String {
        let snapshot = state.config
        guard let host = snapshot.configuration.hosts.first else { return "no hosts" }
        var counts: [ServedState: Int] = [:]
        let storefronts = state.warm
        for storefront in storefronts {
            let request = RosterRequest(snapshot: snapshot, storefront: storefront, host: host)
            counts[reader.view(for: request, keepWarm: false).state, default: 0] += 1
        }
        let parts = ServedState.allCases.compactMap { state in counts[state].map { "\($0) \(state.rawValue)" } }
        return "\(storefronts.count) storefronts: " + (parts.isEmpty ? "none" : parts.joined(separator: ", "))
    }
}
