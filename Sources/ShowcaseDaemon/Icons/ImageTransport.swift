import FoundationEssentials

/// How the icon fetcher reaches an image URL: one GET, bounded in bytes and time, never following a redirect. A
/// protocol so tests can prove that a refused URL is never requested at all.
protocol ImageTransport: Sendable {
    /// GETs `url`, keeping at most `maxBytes` of the body, the whole transfer within `timeout`.
    func get(_ url: String, maxBytes: Int, timeout: Duration) async -> ImageResponse
}

/// What one image GET came to.
enum ImageResponse: Sendable, Equatable {
    /// A 2xx body, within the byte cap (not yet checked to be an image).
    case body(Data)
    /// An answer the fetcher must not use whatever it holds — a redirect, a body over the cap — by kind, with a
    /// sentence.
    case refused(IconFailureReason, String)
    /// The server or the network failed (a 5xx, a timeout, a reset), by kind, with a sentence.
    case failed(IconFailureReason, String)
}
