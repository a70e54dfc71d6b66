import FoundationEssentials
import ShowcaseCore

/// Turns the daemon's RFC 3339 timestamps into "3 h ago" / "in 21 h", the way an operator thinks
/// about freshness, rather than asking them to subtract dates in their head.
struct RelativeTime {
    /// The moment the ages are measured from (the time the command runs).
    let now: Date

    init(now: Date) {
        self.now = now
    }

    /// Parses `2026-11-29T12:00:00Z`, with or without fractional seconds; nil for anything else.
    func parse(_ text: String) -> Date? {
        RFC3339.parse(text)
    }

    /// "3 h ago" for a past timestamp, "just now" within a few seconds (or a little ahead, when
    /// clocks disagree), the raw text when it cannot be parsed, "never" for nil.
    func age(_ text: String?) -> String {
        guard let text else { return "never" }
        guard let date = parse(text) else { return text }
        let seconds = now.timeIntervalSince(date)
        if seconds < 5 { return "just now" }
        return Self.span(seconds) + " ago"
    }

    /// "in 21 h" for a future timestamp, "due" when it has passed, "-" for nil.
    func until(_ text: String?) -> String {
        guard let text else { return "-" }
        guard let date = parse(text) else { return text }
        let seconds = date.timeIntervalSince(now)
        if seconds < 1 { return "due" }
        return "in " + Self.span(seconds)
    }

    /// A duration in the largest unit that keeps it readable: 40 s, 12 min, 3 h, 2 d.
    static func span(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        switch whole {
        case ..<60: return "\(whole) s"
        case ..<3600: return "\(whole / 60) min"
        case ..<(48 * 3600): return "\(whole / 3600) h"
        default: return "\(whole / 86_400) d"
        }
    }
}
