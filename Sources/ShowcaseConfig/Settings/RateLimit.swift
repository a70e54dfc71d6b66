/// An upstream request budget: at most `requests` in every `period` (`20/min`).
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    /// Requests allowed per period; always positive in a loaded configuration.
    public var requests: Int
    /// The period the budget refills over.
    public var period: Duration

    /// At most `requests` per `period`; a zero or negative count is the caller's bug (the loader rejects it).
    public init(requests: Int, per period: Duration) {
        self.requests = requests
        self.period = period
    }

    /// The steady spacing between requests that spends the budget evenly (3 s for `20/min`).
    public var interval: Duration { period / requests }

    /// Requests per minute rounded by `rule`, at least 1 and at most `Int.max`: a rate of
    /// `9223372036854775807/s` has a zero ``interval``, and dividing a minute by it must not trap (SPEC §20).
    public func requestsPerMinute(rounded rule: FloatingPointRoundingRule) -> Int {
        let (seconds, attoseconds) = period.components
        let periodSeconds = Double(seconds) + Double(attoseconds) / 1e18
        guard periodSeconds > 0 else { return .max }
        let perMinute = (Double(requests) * 60 / periodSeconds).rounded(rule)
        guard perMinute < Double(Int.max) else { return .max }
        return max(1, Int(perMinute))
    }

    /// The rate as an operator writes it (`20/min`), for messages and test output.
    public var description: String {
        let unit =
            period == .seconds(1) ? "s" : period == .seconds(60) ? "min" : period == .seconds(3600) ? "h" : "\(period)"
        return "\(requests)/\(unit)"
    }
}
