/// What the daemon exposes to Prometheus at one moment, as plain values: the renderer
/// (``PrometheusExposition``) knows nothing about the roster store or the configuration, so it can be
/// tested, and `promtool`-checked, without a daemon.
///
/// Counters (`upstream*`, ``varlinkCalls``) only grow for the life of the process; Prometheus detects the
/// reset at a restart.
public struct MetricsSnapshot: Sendable, Equatable {
    /// The version `showcased --version` prints (the `version` label of `showcase_build_info`).
    public var version: String
    /// The configuration generation being served: 1 at start, one more per accepted reload.
    public var configGeneration: Int
    /// Upstream requests sent since the daemon started.
    public var upstreamRequests: Int
    /// Upstream requests that failed (transport, HTTP status, unusable body), throttled ones included.
    public var upstreamFailures: Int
    /// Upstream requests answered 403 or 429.
    public var upstreamThrottled: Int
    /// One entry per roster the daemon keeps (storefront, and language where a storefront has several).
    public var storefronts: [StorefrontMetrics]
    /// Varlink calls answered since the daemon started, by fully qualified method name
    /// (`io.showcase.Roster.Get`). Only methods the daemon serves belong here: a client calling made-up names
    /// must not be able to grow the label set.
    public var varlinkCalls: [String: Int]
    /// Icon downloads (SPEC §16) since the daemon started, by result: `ok` (stored), `refused` (not an image of the
    /// size asked for, over `export.icons.max_bytes`, a redirect, a host outside `lookup.artwork_hosts`) and
    /// `failed` (a 5xx, a timeout, a connection error). Apart from the lookup API's counters.
    public var iconRequests: IconRequestCounts

    /// A snapshot of the given values.
    public init(
        version: String, configGeneration: Int, upstreamRequests: Int = 0, upstreamFailures: Int = 0,
        upstreamThrottled: Int = 0, storefronts: [StorefrontMetrics] = [], varlinkCalls: [String: Int] = [:],
        iconRequests: IconRequestCounts = IconRequestCounts()
    ) {
        self.iconRequests = iconRequests
        self.version = version
        self.configGeneration = configGeneration
        self.upstreamRequests = upstreamRequests
        self.upstreamFailures = upstreamFailures
        self.upstreamThrottled = upstreamThrottled
        self.storefronts = storefronts
        self.varlinkCalls = varlinkCalls
    }
}
