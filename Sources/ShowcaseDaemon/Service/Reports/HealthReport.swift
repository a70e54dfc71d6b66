import FoundationEssentials
import ShowcaseAPI
import ShowcaseCore
import ShowcaseHistory

/// What `Roster.Health` reports, and what the metrics' per-storefront figures are built from: every warm
/// roster's state as the default host sees it, in the one roster state every reply uses (``ServedState``).
///
/// A storefront configured with `languages` has one entry per language. The metrics label each with its
/// language; `Roster.Health` keeps one row per storefront code (what monitoring checks key on) and shows the
/// language in the worst state, so a failing French roster of `ca` is not hidden behind a fresh English one
/// (``byStorefront``).
struct HealthReport: Sendable {
    /// One warm roster: a storefront, or one of its languages.
    struct Storefront: Sendable {
        /// The storefront.
        var storefront: ShowcaseCore.Storefront
        /// The roster's language; nil for a storefront fetched without `lang`.
        var language: RosterLanguage? = nil
        /// Its state.
        var state: ServedState
        /// Whole seconds since the served roster was fetched (0 for one fetched "in the future"); nil when no
        /// roster is served.
        var ageSeconds: Int?
        /// Why nothing is served, for `unavailable` and `failed`.
        var problem: LookupError?
        /// The apps `Roster.Get` serves from it for the default host and platform without an OS filter (the host
        /// app and overlay exclusions left out), as Status counts them; 0 when none is served.
        var apps: Int
    }

    /// `refresh.interval`: the age at which a roster turns stale.
    var refreshInterval: Duration
    /// Every warm roster, by code (a storefront's languages in configuration order, the default first).
    var storefronts: [Storefront]
    /// Histories set aside while the daemon runs, whose file is still there (SPEC §20): each makes it `degraded`.
    var problems: [HistorySetAside] = []

    /// One entry per storefront: its only roster, or among its languages the one in the worst state (failed,
    /// then unavailable, stale, warming, fresh; the default language on a tie).
    var byStorefront: [Storefront] {
        var result: [Storefront] = []
        var index: [ShowcaseCore.Storefront: Int] = [:]
        for entry in storefronts {
            guard let at = index[entry.storefront] else {
                index[entry.storefront] = result.count
                result.append(entry)
                continue
            }
            if Self.severity(entry.state) > Self.severity(result[at].state) { result[at] = entry }
        }
        return result
    }

    private static func severity(_ state: ServedState) -> Int {
        switch state {
        case .fresh: 0
        case .warming: 1
        case .stale: 2
        case .unavailable: 3
        case .failed: 4
        }
    }

    /// `degraded` when any storefront is stale, unavailable or failed, or a problem is reported; else `warming`
    /// when any was never fetched; else `ok` (also with no storefront at all: nothing is wrong).
    var state: HealthState {
        let states = Set(storefronts.map(\.state))
        if !problems.isEmpty { return .degraded }
        if !states.isDisjoint(with: [.stale, .unavailable, .failed]) { return .degraded }
        if states.contains(.warming) { return .warming }
        return .ok
    }
}

extension HealthReport.Storefront {
    /// The entry of `view`, aged at `now`.
    init(_ view: RosterView, now: Date) {
        storefront = view.storefront
        language = view.edition.language
        state = view.state
        problem = view.problem
        if let roster = view.roster {
            // A clock stepped back makes a roster look fetched "in the future": its age is 0, not negative.
            let seconds = now.timeIntervalSince(roster.fetchedAt).rounded(.down)
            ageSeconds = seconds > 0 ? Int(min(seconds, Double(Int32.max))) : 0
            apps = view.servedCount
        } else {
            ageSeconds = nil
            apps = 0
        }
    }
}
