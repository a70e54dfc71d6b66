import FoundationEssentials

extension Duration {
    /// "10s", "1.5s": seconds for humans.
    var formattedSeconds: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 { return "\(seconds)s" }
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return "\((value * 1000).rounded() / 1000)s"
    }
}

extension Duration {
    /// Seconds as a `TimeInterval`, for Foundation APIs.
    public var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
