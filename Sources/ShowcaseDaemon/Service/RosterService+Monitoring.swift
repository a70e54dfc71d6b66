import Foundation
import ShowcaseCore

extension RosterService {
    /// Every warm storefront as the default host sees it, for `Roster.Health` and the metrics. Reads only the
    /// store (no scheduler, no network), so it is cheap enough to answer on the event loop.
    func health() -> HealthReport {
        let snapshot = config.current
        let now = clock.now
        var storefronts: [HealthReport.Storefront] = []
        if let host = snapshot.configuration.hosts.first {
            for storefront in warm.all.sorted() {
                let view = view(
                    for: RosterRequest(snapshot: snapshot, storefront: storefront, host: host), keepWarm: false)
                let age = view.fetchedAt.map { fetchedAt in
                    // A clock stepped back makes a roster look fetched "in the future": its age is 0, not negative.
                    let seconds = now.timeIntervalSince(fetchedAt).rounded(.down)
                    return seconds > 0 ? Int(min(seconds, Double(Int32.max))) : 0
                }
                storefronts.append(
                    HealthReport.Storefront(
                        storefront: storefront, state: view.state, ageSeconds: age, problem: view.problem,
                        apps: view.roster?.apps.count ?? 0))
            }
        }
        return HealthReport(refreshInterval: snapshot.schedule.interval, storefronts: storefronts)
    }

    /// The metrics as of now, with the Varlink call counts `varlinkCalls` (kept by the server's dispatch).
    func metrics(varlinkCalls: [String: Int]) -> MetricsSnapshot {
        let counters = upstream.snapshot
        return MetricsSnapshot(
            version: ShowcaseVersion.string, configGeneration: config.generation,
            upstreamRequests: counters.requests, upstreamFailures: counters.failures,
            upstreamThrottled: counters.throttled,
            storefronts: health().storefronts.map { entry in
                StorefrontMetrics(
                    storefront: entry.storefront.code, apps: entry.apps, ageSeconds: entry.ageSeconds,
                    state: entry.state.wire)
            },
            varlinkCalls: varlinkCalls)
    }
}
