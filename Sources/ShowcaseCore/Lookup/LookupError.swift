import FoundationEssentials

/// Everything that can go wrong fetching or decoding a lookup, one actionable case each.
///
/// The cases split into two families that the refresh logic treats differently (see ``isTransport``):
/// transport failures say nothing about the data, so a cached roster may stand in for them; diagnostics
/// (``malformed(detail:)``, ``missingEntityParameter(storefront:resultCount:)``, ``hostAppNotFound(bundleId:storefront:)``)
/// say upstream changed or the configuration is wrong, and serving the cache would keep that quiet.
public enum LookupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The connection could not be made or broke (DNS, refused, reset, TLS).
    case connection(detail: String)
    /// No complete answer within the configured `lookup.timeout`.
    case timeout(Duration)
    /// A non-2xx status other than throttling (5xx, 404 from a wrong endpoint path, …).
    case httpStatus(Int)
    /// HTTP 403 or 429: Apple's rate limiter. `retryAfter` is the `Retry-After` header in seconds when given.
    case throttled(status: Int, retryAfter: Duration?)
    /// A 2xx body that is not a lookup response (an HTML error page, truncated JSON, a body larger than
    /// `lookup.max_response_bytes`).
    case malformed(detail: String)
    /// The identity lookup returned no app for the configured bundle id in that storefront.
    case hostAppNotFound(bundleId: String, storefront: Storefront)
    /// `resultCount > 0` but no software rows: the signature of a request sent without `entity=software`.
    case missingEntityParameter(storefront: Storefront, resultCount: Int)

    /// True for failures of the transport (connection, timeout, non-2xx, throttling): a stale roster may be
    /// served instead. False for diagnostics, which must surface until a refresh succeeds.
    public var isTransport: Bool {
        switch self {
        case .connection, .timeout, .httpStatus, .throttled: true
        case .malformed, .hostAppNotFound, .missingEntityParameter: false
        }
    }

    /// True for 403 and 429, which count as `throttled` in Status and back the scheduler off.
    public var isThrottled: Bool {
        if case .throttled = self { return true }
        return false
    }

    /// One sentence: what happened and what to do.
    public var description: String {
        switch self {
        case .connection(let detail):
            "could not reach the lookup endpoint (\(detail)); check network access and lookup.endpoint"
        case .timeout(let limit):
            "the lookup endpoint did not answer within \(limit.formattedSeconds); it will be retried "
                + "(raise lookup.timeout if this persists)"
        case .httpStatus(let status):
            "the lookup endpoint answered HTTP \(status); it will be retried (check lookup.endpoint if this persists)"
        case .throttled(let status, let retryAfter):
            "the lookup endpoint throttled us (HTTP \(status)"
                + (retryAfter.map { ", Retry-After \($0.formattedSeconds)" } ?? "")
                + "); backing off and retrying later (lower refresh frequency or rate_limit if frequent)"
        case .malformed(let detail):
            "the lookup endpoint answered with something that is not a lookup response (\(detail)); "
                + "check lookup.endpoint and whether Apple changed the format"
        case .hostAppNotFound(let bundleId, let storefront):
            "no app with bundle id '\(bundleId)' exists in the \(storefront.code) storefront; "
                + "check hosts[].bundle_id for a typo"
        case .missingEntityParameter(let storefront, let count):
            "the \(storefront.code) lookup returned \(count) result(s) but no apps, the signature of a request "
                + "without entity=software; check that lookup.endpoint passes the query through unchanged"
        }
    }
}
