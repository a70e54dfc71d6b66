import Foundation
import ShowcaseCore

/// What `Roster.Health` reports, and what the metrics' per-storefront figures are built from: every warm
/// storefront's state as the default host sees it, in the one mapping every reply uses (``ServedState``).
struct HealthReport: Sendable {
    /// The daemon's state as a whole.
    enum Overall: Sendable, Equatable {
        /// Every warm storefront is fresh.
        case ok
        /// Some storefront is stale, unavailable or failed.
        case degraded
        /// None of those, but some storefront was never fetched yet.
        case warming
    }

    /// One warm storefront.
    struct Storefront: Sendable {
        /// The storefront.
        var storefront: ShowcaseCore.Storefront
        /// Its state.
        var state: ServedState
        /// Whole seconds since the served roster was fetched (0 for one fetched "in the future"); nil when no
        /// roster is served.
        var ageSeconds: Int?
        /// Why nothing is served, for `unavailable` and `failed`.
        var problem: LookupError?
        /// Apps in the cached roster before any query's filter; 0 when none is served.
        var apps: Int
    }

    /// `refresh.interval`: the age at which a roster turns stale.
    var refreshInterval: Duration
    /// Every warm storefront, by code.
    var storefronts: [Storefront]

    /// `degraded` when any storefront is stale, unavailable or failed; else `warming` when any was never fetched;
    /// else `ok` (also with no storefront at all: nothing is wrong).
    var state: Overall {
        let states = Set(storefronts.map(\.state))
        if !states.isDisjoint(with: [.stale, .unavailable, .failed]) { return .degraded }
        if states.contains(.warming) { return .warming }
        return .ok
    }
}

extension HealthReport.Storefront {
    /// The entry of `view`, aged at `now`.
    init(_ view: RosterView, now: Date) {
        storefront = view.storefront
        state = view.state
        problem = view.problem
        if let roster = view.roster {
            // A clock stepped back makes a roster look fetched "in the future": its age is 0, not negative.
            let seconds = now.timeIntervalSince(roster.fetchedAt).rounded(.down)
            ageSeconds = seconds > 0 ? Int(min(seconds, Double(Int32.max))) : 0
            apps = roster.apps.count
        } else {
            ageSeconds = nil
            apps = 0
        }
    }
}
