import CCurl
import Dispatch
import FoundationEssentials
import ShowcaseCore

/// The real ``LookupTransport``: one bounded HTTP GET per request over libcurl's easy interface.
///
/// Not FoundationNetworking's `URLSession`, because that could not be bounded: it advertised and inflated every
/// encoding libcurl knows, handed decoded chunks to the delegate through an unbounded queue, followed redirects,
/// rounded timeouts to whole seconds and, while waiting on a silent upstream, polled in a busy loop: its memory
/// followed what the upstream sent, not the cap, and its waiting cost a core. Here (`Sources/CCurl`) the request asks
/// for `gzip` or identity only, the *decoded* bytes are counted as they stream and the transfer is cut at
/// `maxResponseBytes` (memory stays near the cap, the refresh ends in ``LookupError/malformed(detail:)``), a 3xx is
/// answered as it is (never followed, a transport failure that keeps the cache), the deadline is exact to the
/// millisecond, and the wait is `poll(2)` in libcurl, which costs nothing while nothing arrives.
///
/// Upstream citizenship is enforced here rather than trusted to callers: no cookies, no cache, no
/// credentials; a `User-Agent` naming showcased and its version; nothing but the lookup's own query.
public struct CurlTransport: LookupTransport {
    /// `lookup.endpoint` (default `https://itunes.apple.com/lookup`).
    public let endpoint: URL
    /// `lookup.timeout` (default 10s): for the whole request, connection to last byte.
    public let timeout: Duration
    /// `lookup.max_response_bytes` (default 8 MiB): a larger body, counted after decompression, is
    /// ``LookupError/malformed(detail:)``.
    public let maxResponseBytes: Int
    /// Sent as `User-Agent: showcased/<version>`.
    public let userAgent: String
    /// The daemon's clock: a `Retry-After` given as an HTTP date is a delay from its `now`.
    public let clock: any ShowcaseClock

    /// Creates a transport. `version` is the daemon's version string.
    public init(
        endpoint: URL, timeout: Duration = .seconds(10), maxResponseBytes: Int = 8 << 20, version: String,
        clock: any ShowcaseClock = SystemClock()
    ) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.userAgent = "showcased/\(version)"
        self.clock = clock
    }

    /// Fetches `request`, mapping every failure to a ``LookupError``. The blocking transfer runs on a
    /// Dispatch worker, never on the caller's executor.
    public func fetch(_ request: LookupRequest) async throws(LookupError) -> Data {
        let url = request.url(endpoint: endpoint).absoluteString
        let milliseconds = Self.milliseconds(timeout)
        let limit = max(0, maxResponseBytes)
        let (agent, timeout, clock) = (userAgent, timeout, clock)
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Data, LookupError>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Self.perform(
                        url: url, userAgent: agent, milliseconds: milliseconds, limit: limit,
                        timeout: timeout, clock: clock))
            }
        }
        return try outcome.get()
    }

    /// `timeout` in whole milliseconds, at least 1, saturating instead of trapping or wrapping for an absurd duration.
    static func milliseconds(_ timeout: Duration) -> Int {
        let (seconds, attoseconds) = timeout.components
        let (whole, overflow) = Int(clamping: seconds).multipliedReportingOverflow(by: 1000)
        let fraction = Int(attoseconds / 1_000_000_000_000_000)
        return overflow || whole > Int.max - 1000 ? Int.max : max(1, whole + fraction)
    }

    private static func perform(
        url: String, userAgent: String, milliseconds: Int, limit: Int, timeout: Duration, clock: any ShowcaseClock
    ) -> Result<Data, LookupError> {
        var result = showcase_http_result()
        defer { showcase_http_free(&result) }
        showcase_http_get(url, userAgent, "Accept: application/json", milliseconds, limit, &result)
        let error = withUnsafeBytes(of: &result.error) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if result.overflow != 0 {
            return .failure(.malformed(detail: "body exceeds lookup.max_response_bytes (\(limit) bytes)"))
        }
        let status = result.status
        if status != 0, !(200..<300).contains(status) {
            switch status {
            case 403, 429:
                let header = withUnsafeBytes(of: &result.retry_after) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                let retryAfter = header.isEmpty ? nil : RetryAfter.parse(header, now: clock.now)
                return .failure(.throttled(status: status, retryAfter: retryAfter))
            default:
                return .failure(.httpStatus(status))
            }
        }
        if result.timed_out != 0 { return .failure(.timeout(timeout)) }
        if result.bad_encoding != 0 {
            return .failure(.malformed(detail: "the body's Content-Encoding could not be decoded (\(error))"))
        }
        guard result.curl_code == 0 else { return .failure(.connection(detail: error)) }
        guard status != 0 else { return .failure(.malformed(detail: "the answer was not HTTP")) }
        guard let body = result.body, result.body_length > 0 else { return .success(Data()) }
        return .success(Data(bytes: body, count: result.body_length))
    }
}
