/// The `refresh:` section: how often each warm roster is fetched again.
public struct RefreshSettings: Sendable, Equatable {
    /// `refresh.interval` — duration, default `24h`. A roster younger than this is fresh; it is also
    /// the refresh period and the ceiling of the retry back-off.
    public var interval: Duration
    /// `refresh.jitter` — percentage from `0%` to `50%`, default `10%` (stored as a fraction, 0.1).
    /// Each refresh is scheduled at interval ± this share, so storefronts never refresh in a burst.
    public var jitter: Double
    /// `refresh.retry` — duration, default `5m`, at most `interval`. The first retry after a failed
    /// refresh; it doubles after each further failure up to `interval`.
    public var retry: Duration

    public init(interval: Duration = .seconds(86_400), jitter: Double = 0.1, retry: Duration = .seconds(300)) {
        self.interval = interval
        self.jitter = jitter
        self.retry = retry
    }

    static let keys = ["interval", "jitter", "retry"]

    init(reading node: YAMLNode, diagnostics: inout ConfigDiagnostics) {
        self.init()
        guard let fields = diagnostics.fields(of: node, in: "refresh", known: Self.keys) else { return }
        if let value = fields["interval"], let interval = diagnostics.duration(value, "refresh.interval") {
            self.interval = interval
        }
        if let value = fields["jitter"] {
            if let text = value.scalar, let fraction = ConfigValue.percentage(text) {
                if (0...0.5).contains(fraction) {
                    jitter = fraction
                } else {
                    diagnostics.report(
                        .invalidValue, at: value,
                        "'refresh.jitter' must be between 0% and 50% so refreshes stay spread, found '\(text)'")
                }
            } else {
                diagnostics.report(
                    .typeMismatch, at: value,
                    "expected a percentage like 10% for 'refresh.jitter', found \(value.kindDescription)")
            }
        }
        if let value = fields["retry"], let retry = diagnostics.duration(value, "refresh.retry") {
            if retry <= interval {
                self.retry = retry
            } else {
                diagnostics.report(
                    .invalidValue, at: value,
                    "'refresh.retry' (\(value.scalar ?? "")) must not be longer than 'refresh.interval'; "
                        + "the retry back-off stops at the interval")
            }
        }
    }
}
