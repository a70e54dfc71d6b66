/// Icon downloads by result, for `showcase_icon_requests_total{result}` (SPEC §16).
public struct IconRequestCounts: Sendable, Equatable {
    /// Downloaded and stored (or waiting for the next export pass to store it).
    public var ok: Int
    /// Refused: not a PNG, JPEG or WebP of the size asked for, over `export.icons.max_bytes`, a redirect, or a
    /// host outside `lookup.artwork_hosts` (then nothing was sent).
    public var refused: Int
    /// Failed: an HTTP error status, a timeout, a connection error.
    public var failed: Int
    /// Refused and failed downloads by why, for `showcase_icon_failures_total{reason}`; a reason never seen is 0.
    public var reasons: [IconFailureReason: Int]

    /// Counts of the given values.
    public init(ok: Int = 0, refused: Int = 0, failed: Int = 0, reasons: [IconFailureReason: Int] = [:]) {
        self.ok = ok
        self.refused = refused
        self.failed = failed
        self.reasons = reasons
    }
}
