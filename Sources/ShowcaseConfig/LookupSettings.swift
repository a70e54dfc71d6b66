import Foundation

/// The `lookup:` section: the upstream lookup endpoint and the budget for calling it.
public struct LookupSettings: Sendable, Equatable {
    /// The endpoint showcased calls when no `lookup.endpoint` is configured: Apple's public lookup API.
    public static let appleEndpoint = URL(string: "https://itunes.apple.com/lookup")!

    /// `lookup.endpoint` — http or https URL, default `https://itunes.apple.com/lookup`. Tests and the
    /// offline demo point it at a loopback server.
    public var endpoint: URL
    /// `lookup.timeout` — duration, default `10s`: how long one upstream request may take in total.
    public var timeout: Duration
    /// `lookup.rate_limit` — rate like `20/min` (`/s`, `/min`, `/h`), default `20/min`: the one budget
    /// shared by every upstream request, matching Apple's published limit per IP.
    public var rateLimit: RateLimit
    /// `lookup.max_response_bytes` — size like `8MiB`, default `8MiB`: a larger body is refused as
    /// malformed instead of being buffered.
    public var maxResponseBytes: Int

    /// The documented defaults, each overridable for tests.
    public init(
        endpoint: URL = LookupSettings.appleEndpoint, timeout: Duration = .seconds(10),
        rateLimit: RateLimit = RateLimit(requests: 20, per: .seconds(60)), maxResponseBytes: Int = 8 << 20
    ) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.rateLimit = rateLimit
        self.maxResponseBytes = maxResponseBytes
    }

    static let keys = ["endpoint", "timeout", "rate_limit", "max_response_bytes"]

    init(reading node: YAMLNode, diagnostics: inout ConfigDiagnostics) {
        self.init()
        guard let fields = diagnostics.fields(of: node, in: "lookup", known: Self.keys) else { return }
        if let value = fields["endpoint"] {
            if let text = value.scalar, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme), url.host?.isEmpty == false, url.query == nil
            {
                endpoint = url
            } else {
                diagnostics.report(
                    .invalidValue, at: value,
                    "expected an http or https URL without a query, like https://itunes.apple.com/lookup, "
                        + "for 'lookup.endpoint', found \(value.kindDescription)")
            }
        }
        if let value = fields["timeout"], let timeout = diagnostics.duration(value, "lookup.timeout") {
            self.timeout = timeout
        }
        if let value = fields["rate_limit"] {
            if let text = value.scalar, let rate = ConfigValue.rate(text) {
                if rate.requests > 0 {
                    rateLimit = rate
                } else {
                    diagnostics.report(
                        .invalidValue, at: value,
                        "'lookup.rate_limit' must allow at least one request, found '\(text)'")
                }
            } else {
                diagnostics.report(
                    .typeMismatch, at: value,
                    "expected a rate like 20/min for 'lookup.rate_limit' (per s, min or h), "
                        + "found \(value.kindDescription)")
            }
        }
        if let value = fields["max_response_bytes"],
            let size = diagnostics.byteSize(value, "lookup.max_response_bytes")
        {
            maxResponseBytes = size
        }
    }
}
