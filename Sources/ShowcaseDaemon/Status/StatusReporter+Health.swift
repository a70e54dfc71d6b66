import FoundationEssentials
import ShowcaseCore

extension StatusReporter {
    /// Every warm roster (each language of a multilingual storefront) as the default host sees it, for
    /// `Roster.Health` and the metrics. Reads only the store (no scheduler, no network), so it is cheap enough to
    /// answer on the event loop.
    func health() -> HealthReport {
        let snapshot = state.config
        let now = clock.now
        let storefronts = warmViews(under: snapshot).map { HealthReport.Storefront($0.view, now: now) }
        return HealthReport(
            refreshInterval: snapshot.schedule.interval, storefronts: storefronts, problems: history.problems())
    }

    /// The metrics as of now, with the Varlink call counts `varlinkCalls` (kept by the server's dispatch).
    func metrics(varlinkCalls: [String: Int]) -> MetricsSnapshot {
        let counters = upstream.snapshot
        return MetricsSnapshot(
            version: ShowcaseVersion.string, configGeneration: state.config.generation,
            upstreamRequests: counters.requests, upstreamFailures: counters.failures,
            upstreamThrottled: counters.throttled,
            storefronts: health().storefronts.map { entry in
                StorefrontMetrics(
                    storefront: entry.storefront.code, language: entry.language?.code, apps: entry.apps,
                    ageSeconds: entry.ageSeconds,
                    state: entry.state.wire)
            },
            varlinkCalls: varlinkCalls, iconRequests: exporter.iconRequestCounts)
    }
}
