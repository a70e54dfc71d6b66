/// Why an icon download did not give an icon, for `showcase_icon_failures_total{reason}`: one label per kind of
/// refusal or failure, so a dashboard tells a wrong artwork host from a CDN outage.
public enum IconFailureReason: String, Sendable, CaseIterable, Comparable {
    /// The app's `iconUrl` does not end in `<w>x<h>bb.<ext>`, so no sized URL can be made (nothing is fetched).
    case badURL = "bad_url"
    /// The sized URL is not under `lookup.artwork_hosts` (nothing is fetched: the SSRF guard).
    case hostNotAllowed = "host_not_allowed"
    /// A redirect, which is never followed.
    case redirect
    /// A body over `export.icons.max_bytes`, cut while streaming.
    case tooLarge = "too_large"
    /// A body that is not a PNG, JPEG or WebP image, is damaged, or is not HTTP at all.
    case notImage = "not_image"
    /// An image of another pixel size than asked for.
    case wrongSize = "wrong_size"
    /// An HTTP error status (4xx, 5xx).
    case httpStatus = "http_status"
    /// The whole download did not complete within `lookup.timeout` (a slow or trickling server).
    case timeout
    /// The connection failed (refused, reset, DNS).
    case connection

    /// Ordered by label, as the exposition lists them.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
