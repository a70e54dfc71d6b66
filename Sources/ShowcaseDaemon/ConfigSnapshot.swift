import Foundation
import ShowcaseConfig
import ShowcaseCore

/// One validated configuration and its generation, immutable once built.
///
/// A reload builds a complete new snapshot and swaps a single reference, so a call either sees the old
/// configuration or the new one, never a mix. Lookups the hot path needs are precomputed here.
public final class ConfigSnapshot: Sendable {
    /// The configuration as loaded.
    public let configuration: Configuration
    /// 1 for the configuration loaded at startup, +1 per successful reload.
    public let generation: Int
    /// Hosts by bundle id, for `host:` parameters.
    let hostsByBundleID: [String: HostConfiguration]
    /// The configured warm set.
    let storefronts: Set<Storefront>

    init(configuration: Configuration, generation: Int) {
        self.configuration = configuration
        self.generation = generation
        var hosts: [String: HostConfiguration] = [:]
        for host in configuration.hosts where hosts[host.bundleID] == nil { hosts[host.bundleID] = host }
        self.hostsByBundleID = hosts
        self.storefronts = Set(configuration.storefronts)
    }

    /// The host a query names, or the first configured host when it names none.
    func host(named name: String?) -> HostConfiguration? {
        guard let name else { return configuration.defaultHost }
        if let host = hostsByBundleID[name] { return host }
        return configuration.hosts.first { $0.bundleID.caseInsensitiveCompare(name) == .orderedSame }
    }
}
