/// The `metrics:` section: the Prometheus text exposition showcased keeps on disk for node_exporter's textfile
/// collector (the usual way a daemon that only speaks a Unix socket is scraped). `Admin.Metrics` and
/// `showcasectl metrics` answer the same text whether or not a file is configured.
public struct MetricsSettings: Sendable, Equatable {
    /// `metrics.textfile` — path, default none (no file written). Rewritten atomically (temporary file, rename)
    /// every `metrics.interval`. Must end in `.prom`: node_exporter's textfile collector reads nothing else, so
    /// any other name would be written and never scraped. A relative path is taken relative to the configuration
    /// file. Its directory need not exist for `check-config`.
    public var textfile: String?
    /// `metrics.interval` — duration, default `60s`, at least `1s` and at most `1d`: how often the textfile is rewritten.
    public var interval: Duration

    /// The shortest `metrics.interval` accepted: rewriting the file more often only costs disk writes, as
    /// scrapers rarely poll faster than every 15 s.
    public static let minimumInterval = Duration.seconds(1)

    /// A metrics section with the documented defaults (no textfile, every 60 s) unless overridden.
    public init(textfile: String? = nil, interval: Duration = .seconds(60)) {
        self.textfile = textfile
        self.interval = interval
    }

    static let keys = ["textfile", "interval"]

    init(reading node: YAMLNode, base: String, diagnostics: inout ConfigDiagnostics) {
        self.init()
        guard let fields = diagnostics.fields(of: node, in: "metrics", known: Self.keys) else { return }
        if let value = fields["textfile"], !value.isNull,
            let path = diagnostics.string(value, "metrics.textfile", expected: "a file path ending in .prom")
        {
            if path.hasSuffix(".prom"), !path.hasSuffix("/.prom") {
                textfile = ConfigLoader.resolve(path, relativeTo: base)
            } else {
                diagnostics.report(
                    .invalidValue, at: value,
                    "'metrics.textfile' must name a file ending in .prom (node_exporter's textfile collector "
                        + "reads only those), like /var/lib/prometheus/node-exporter/showcase.prom; found '\(path)'")
            }
        }
        if let value = fields["interval"],
            let interval = diagnostics.duration(
                value, "metrics.interval", maximum: .seconds(86_400), maximumText: "1d")
        {
            if interval >= Self.minimumInterval {
                self.interval = interval
            } else {
                diagnostics.report(
                    .invalidValue, at: value,
                    "'metrics.interval' must be at least 1s, found '\(value.scalar ?? "")'")
            }
        }
    }
}
