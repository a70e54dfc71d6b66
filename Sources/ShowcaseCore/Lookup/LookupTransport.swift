import FoundationEssentials

/// Fetches one lookup request's body. The seam between the roster logic and the network.
///
/// The daemon uses its `CurlTransport` (libcurl through `Sources/CCurl`, kept in ShowcaseDaemon so that
/// showcasectl never loads libcurl); tests inject a fake that returns fixture bytes or a chosen ``LookupError``. Implementations return the body of a 2xx answer only: every other outcome is a typed
/// transport error, so callers never inspect status codes.
public protocol LookupTransport: Sendable {
    /// The 2xx body for `request`, or the transport failure.
    func fetch(_ request: LookupRequest) async throws(LookupError) -> Data
}
