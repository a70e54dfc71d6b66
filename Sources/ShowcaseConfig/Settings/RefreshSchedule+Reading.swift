import ShowcaseCore

/// The `refresh:` section is read straight into ShowcaseCore's `RefreshSchedule`, which documents each key
/// (`refresh.interval` 24h, `refresh.jitter` 10% as 0.1 and at most 50%, `refresh.retry` 5m and at most the
/// interval): the schedule the daemon runs is the value the operator wrote, with no second copy to keep in step.
extension RefreshSchedule {
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
