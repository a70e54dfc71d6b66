import FoundationEssentials
import ShowcaseCore

/// The `lookup:` section: the upstream lookup endpoint and the budget for calling it.
public struct LookupSettings: Sendable, Equatable {
    /// The endpoint showcased calls when no `lookup.endpoint` is configured: Apple's public lookup API.
    public static let appleEndpoint = URL(string: "https://itunes.apple.com/lookup")!

    /// `lookup.endpoint` — http or https URL, default `https://itunes.apple.com/lookup`. Tests and the
    /// offline demo point it at a loopback server.
    public var endpoint: URL
    /// `lookup.timeout` — duration, default `10s`, at most `365d`: how long one upstream request may take in total.
    public var timeout: Duration
    /// `lookup.rate_limit` — rate like `20/min` (`/s`, `/min`, `/h`), default `20/min`: the one budget
    /// shared by every upstream request, matching Apple's published limit per IP.
    public var rateLimit: RateLimit
    /// `lookup.max_response_bytes` — size like `8MiB`, default `8MiB`: a larger body is refused as
    /// malformed instead of being buffered.
    public var maxResponseBytes: Int
    /// `lookup.artwork_hosts` — list of URL prefixes, default `["https://*.mzstatic.com/"]`: an app whose icon URL
    /// starts with none of them is dropped (counted in `droppedRows`), so no `javascript:`, `data:` or foreign-host
    /// icon reaches a reply, a document or a page. A leading `*.` label matches one or more labels; the host is
    /// compared case-insensitively, the port as written; no userinfo. https only, except `http://127.0.0.1:PORT/`
    /// (loopback, for tests and the demo). At least one entry.
    public var artworkHosts: [URLPrefix]

    /// The documented defaults, each overridable for tests.
    public init(
        endpoint: URL = LookupSettings.appleEndpoint, timeout: Duration = .seconds(10),
        rateLimit: RateLimit = RateLimit(requests: 20, per: .seconds(60)), maxResponseBytes: Int = 8 << 20,
        artworkHosts: [URLPrefix] = [.appleArtwork]
    ) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.rateLimit = rateLimit
        self.maxResponseBytes = maxResponseBytes
        self.artworkHosts = artworkHosts
    }

    /// The URL rules rows are checked with: store URLs on Apple's hosts, icons under ``artworkHosts``.
    public var urlRules: URLRules { URLRules(artworkHosts: artworkHosts) }

    static let keys = ["endpoint", "timeout", "rate_limit", "max_response_bytes", "artwork_hosts"]

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
        if let value = fields["artwork_hosts"], let prefixes = Self.artworkHosts(value, &diagnostics) {
            artworkHosts = prefixes
        }
    }

    /// The prefixes of `lookup.artwork_hosts`, or nil after reporting each bad entry at its own position.
    private static func artworkHosts(_ node: YAMLNode, _ diagnostics: inout ConfigDiagnostics) -> [URLPrefix]? {
        let key = "lookup.artwork_hosts"
        guard
            let items = diagnostics.sequence(
                node, key, expected: "a list of URL prefixes like [\"https://*.mzstatic.com/\"]")
        else { return nil }
        guard !items.isEmpty else {
            diagnostics.report(
                .invalidValue, at: node,
                "'\(key)' needs at least one URL prefix (every app would be dropped); "
                    + "remove the key for the default [\"https://*.mzstatic.com/\"]")
            return nil
        }
        var prefixes: [URLPrefix] = []
        var valid = true
        for item in items {
            guard let text = item.scalar, !item.isNull else {
                diagnostics.report(
                    .typeMismatch, at: item,
                    "expected a URL prefix like \"https://*.mzstatic.com/\" in '\(key)', found \(item.kindDescription)")
                valid = false
                continue
            }
            do {
                prefixes.append(try URLPrefix(parsing: text))
            } catch {
                diagnostics.report(.invalidValue, at: item, "'\(key)': \(error)")
                valid = false
            }
        }
        return valid ? prefixes : nil
    }
}
