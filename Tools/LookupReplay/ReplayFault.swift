import Foundation

/// A misbehaviour the replay server injects instead of (or before) the normal fixture answer, so tests
/// can prove the daemon keeps serving its cache through transport failures and surfaces bad bodies.
public enum ReplayFault: Sendable, Equatable {
    /// Answer with this HTTP status (403, 429, 500…) and, when given, a `Retry-After` header value.
    /// The body is `throttled-403.txt` for 403 when that fixture exists, else empty.
    case status(Int, retryAfter: String? = nil)
    /// Wait this long before answering normally: longer than `lookup.timeout` makes a timeout.
    case delay(Duration)
    /// Close the connection without answering.
    case close
    /// Reset the connection (RST via `SO_LINGER` 0) without answering.
    case reset
    /// Answer 200 with this file's bytes instead of the matching fixture. A relative name is looked
    /// up in the fixtures directory (`malformed.html`, `artist-1-us.json`); an absolute path is used as is.
    case body(String)
    /// Answer 200 with the first half of the matching fixture and a consistent `Content-Length`:
    /// a complete HTTP response whose body is cut mid-JSON.
    case truncate
    /// Answer `301 Moved Permanently` with this `Location` and no body: a client that follows it fetches what
    /// the location names (another storefront's roster, say) instead of what it asked for.
    case redirect(String)
    /// Answer 200 with this file's bytes as they are and `Content-Encoding: gzip`: the file must already be
    /// gzip data (a small file that inflates to gigabytes makes a decompression bomb). Named like ``body(_:)``.
    case gzipBody(String)
    /// Answer 200 with the normal body and a consistent `Content-Length`, one byte per `interval`: a server that
    /// trickles, which only a deadline for the whole transfer (not a per-read timeout) cuts.
    case trickle(Duration)

    /// Short label used in the request log (`RecordedRequest.answeredWith`).
    var label: String {
        switch self {
        case .status(let code, let retryAfter): retryAfter.map { "fault:\(code) retry-after=\($0)" } ?? "fault:\(code)"
        case .delay(let duration): "fault:delay \(duration)"
        case .close: "fault:close"
        case .reset: "fault:reset"
        case .body(let file): "fault:body \(file)"
        case .truncate: "fault:truncate"
        case .redirect(let location): "fault:redirect \(location)"
        case .gzipBody(let file): "fault:gzip \(file)"
        case .trickle(let interval): "fault:trickle \(interval)"
        }
    }
}
