import FoundationEssentials

/// Parses the `Retry-After` header of a throttled answer.
public enum RetryAfter {
    /// Delay-seconds (`120`) or an HTTP date relative to `now`; nil for anything else or a negative delay.
    ///
    /// `now` has no default: it is the caller's clock (``ShowcaseClock/now``), so a date in the header is measured
    /// against the same time the schedule runs on, and a test with a manual clock gets the delay it set up.
    public static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingWhitespace()
        if let seconds = Int(trimmed) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let delay = date.timeIntervalSince(now)
        return delay >= 0 ? .seconds(Int(delay.rounded(.up))) : .zero
    }
}
