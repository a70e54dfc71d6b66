/// One line of progress on long work, as SPEC §17 words it: `12/176 storefronts, next request in 3 s, about 8 min
/// left`. A value, so what it says is tested without a terminal; ``TerminalProgress`` shows it in place.
///
/// The time left is the rate limit's bound, not a guess from elapsed time: the remaining requests at
/// `requestsPerMinute`, after the next one's wait. So a cold warm of 176 rosters at 20/min says "about 9 min"
/// from its first line.
public struct ProgressLine: Sendable, Equatable {
    /// Items finished (rosters refreshed, storefronts warmed).
    public var done: Int
    /// Items in all; `done` never exceeds it in the text.
    public var total: Int
    /// What is counted, plural ("storefronts", "rosters").
    public var unit: String
    /// How long until the next upstream request may go (the rate limiter's or a `Retry-After` pause); nil when
    /// one is under way or none is waiting.
    public var nextRequestIn: Duration?
    /// Upstream requests still to make, each costing one slot of the rate limit.
    public var requestsLeft: Int
    /// The rate limit (`lookup.rate_limit`), requests per minute; at least 1 is assumed.
    public var requestsPerMinute: Int

    /// A progress line; negative counts are read as 0.
    public init(
        done: Int, total: Int, unit: String = "storefronts", nextRequestIn: Duration? = nil, requestsLeft: Int,
        requestsPerMinute: Int
    ) {
        self.done = max(0, done)
        self.total = max(0, total)
        self.unit = unit
        self.nextRequestIn = nextRequestIn
        self.requestsLeft = max(0, requestsLeft)
        self.requestsPerMinute = requestsPerMinute
    }

    /// The time the remaining requests take at the rate limit: the first after `nextRequestIn`, each further one
    /// a slot (60 s / rate) later.
    public var timeLeft: Duration {
        guard requestsLeft > 0 else { return .zero }
        let slot = Duration.seconds(60) / max(1, requestsPerMinute)
        return (nextRequestIn ?? .zero) + slot * (requestsLeft - 1)
    }

    /// `12/176 storefronts, next request in 3 s, about 8 min left` (the parts that apply).
    public var text: String {
        var parts = ["\(min(done, total))/\(total) \(unit)"]
        if let wait = nextRequestIn, wait > .zero { parts.append("next request in \(Self.spoken(wait))") }
        if requestsLeft > 0 { parts.append("about \(Self.spoken(timeLeft)) left") }
        return parts.joined(separator: ", ")
    }

    /// `3 s`, `8 min`, `2 h 5 min`: whole seconds under a minute (rounded up, so a wait never reads 0 s), then
    /// whole minutes, rounded to the nearest.
    public static func spoken(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let whole = seconds + (attoseconds > 0 ? 1 : 0)
        if whole < 60 { return "\(max(whole, 0)) s" }
        let minutes = (whole + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
