import FoundationEssentials
import ShowcaseCore

/// What a one-shot run (`--once`, ``Daemon/runOnce(_:configuration:configPath:load:clock:log:signals:)``) reads of
/// the state: which editions are due, and every configured roster for its report. Built from the state, the clock
/// and the reader every reply is built with.
struct OneShotRosters: Sendable {
    /// The daemon's state and its one owner.
    let state: StateOwner
    /// The daemon's one clock (freshness is judged at its `now`).
    let clock: any ShowcaseClock
    /// Each roster as `Roster.Get` answers it.
    let reader: RosterReader
}

extension OneShotRosters {
    /// The configured editions a one-shot run refreshes: every one that some host does not see fresh now
    /// (missing, stale, in a diagnostic, or its host not resolved yet), in the configuration's order. Freshness is
    /// the fetch time inside each cached payload, never a file's mtime, so a CI cache restore that changed every
    /// mtime leaves a fresh cache fresh.
    func editionsDue() -> [StorefrontEdition] { state.config.configuration.editions.filter(isDue) }

    /// Whether some configured host does not see `edition` fresh now. Asked again just before each refresh of a
    /// one-shot run: a new host of a developer already cached is resolved by the first refresh, after which that
    /// developer's other rosters are fresh for it too and cost no request.
    func isDue(_ edition: StorefrontEdition) -> Bool {
        let snapshot = state.config
        let now = clock.now
        return snapshot.configuration.hosts.contains { host in
            let found = state.answer(host: host.bundleID, edition: edition, now: now, under: snapshot)
            return ServedState(found.answer) != .fresh
        }
    }

    /// Every configured host in every configured edition as `Roster.Get` answers it now, for a one-shot run's
    /// report (the same ``RosterView`` every reply is built from): the rows its developer's roster holds, and the apps
    /// `Get` lists on the default platform.
    func rows() -> [OneShotReport.Roster] {
        let snapshot = state.config
        var rosters: [OneShotReport.Roster] = []
        for host in snapshot.configuration.hosts {
            for edition in snapshot.configuration.editions {
                let request = RosterRequest(
                    snapshot: snapshot, storefront: edition.storefront, host: host, edition: edition)
                let view = reader.view(for: request, keepWarm: false)
                rosters.append(
                    OneShotReport.Roster(
                        host: host.bundleID, edition: edition, state: view.state, rows: view.roster?.apps.count ?? 0,
                        apps: view.apps.count, platform: request.platform, fetchedAt: view.fetchedAt,
                        error: view.problem?.description ?? state.lastRefreshError(edition)?.description))
            }
        }
        return rosters
    }
}
