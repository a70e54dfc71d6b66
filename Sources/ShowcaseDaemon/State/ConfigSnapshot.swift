import FoundationEssentials
import ShowcaseConfig
import ShowcaseCore

/// One validated configuration and its generation, immutable once built.
///
/// A reload builds a complete new snapshot and swaps a single reference, so a call either sees the old
/// configuration or the new one, never a mix. It is the only live copy of the settings: the scheduler, the rate
/// limiter and the upstream read them from the current snapshot when they need them, so swapping it is the whole
/// reload. Lookups the hot path needs, and the transport built for `lookup.*`, are made once here.
public final class ConfigSnapshot: Sendable {
    /// The configuration as loaded.
    public let configuration: Configuration
    /// 1 for the configuration loaded at startup, +1 per successful reload.
    public let generation: Int
    /// Hosts by bundle id, for `host:` parameters.
    let hostsByBundleID: [String: HostConfiguration]
    /// The transport to `lookup.endpoint` with `lookup.timeout` and `lookup.max_response_bytes`.
    let transport: any LookupTransport

    init(configuration: Configuration, generation: Int, transport: any LookupTransport) {
        self.configuration = configuration
        self.generation = generation
        var hosts: [String: HostConfiguration] = [:]
        for host in configuration.hosts where hosts[host.bundleID] == nil { hosts[host.bundleID] = host }
        self.hostsByBundleID = hosts
        self.transport = transport
    }

    /// `refresh.*`: when to refresh after a success or a failure.
    var schedule: RefreshSchedule { configuration.refresh }

    /// The time between two upstream requests that `lookup.rate_limit` allows.
    var requestSpacing: Duration {
        RateLimiter.spacing(count: configuration.lookup.rateLimit.requests, per: configuration.lookup.rateLimit.period)
    }

    /// The host a query names, or the first configured host when it names none.
    func host(named name: String?) -> HostConfiguration? {
        guard let name else { return configuration.defaultHost }
        if let host = hostsByBundleID[name] { return host }
        return configuration.hosts.first { $0.bundleID.equalsIgnoringCase(name) }
    }
}
