/// Parsers for the scalar notations the configuration uses, shared so every key that takes a
/// duration, size, rate or percentage accepts exactly the same spellings.
///
/// Each returns nil when the text is not in the notation at all; range checks (positive, at most
/// 100%) are the caller's, which knows the key and can say what it needs.
public enum ConfigValue {
    /// `500ms`, `30s`, `5m`, `24h`, `7d` (an integer and one unit; a leading `-` is accepted so a
    /// negative value can be reported as "must be positive" rather than "not a duration").
    ///
    /// A number too large for 64 bits (`99999999999999999999d`) or whose seconds overflow is
    /// ``longestDuration`` (or its negative), never a trap: a caller's upper bound then refuses it
    /// as too long rather than as not a duration.
    public static func duration(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Int64, isMilliseconds: Bool)] = [
            ("ms", 0, true), ("s", 1, false), ("m", 60, false), ("h", 3600, false), ("d", 86_400, false),
        ]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = String(text.dropLast(unit.suffix.count))
            guard let value = signedInteger(number) else {
                guard isSignedInteger(number) else { continue }
                return number.hasPrefix("-") ? .zero - longestDuration : longestDuration
            }
            if unit.isMilliseconds { return .milliseconds(value) }
            let (seconds, overflow) = value.multipliedReportingOverflow(by: unit.seconds)
            guard !overflow else { return value < 0 ? .zero - longestDuration : longestDuration }
            return .seconds(seconds)
        }
        return nil
    }

    /// What ``duration(_:)`` reads an out-of-range number as: longer than any key allows (`Int64.max`
    /// seconds), so the key's bound reports it.
    public static let longestDuration = Duration.seconds(Int64.max)

    /// `512KiB`, `8MiB`, `1GiB`, `100B` or a bare byte count. Binary units only: `MB` is ambiguous.
    public static func byteSize(_ text: String) -> Int? {
        let units: [(suffix: String, factor: Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("B", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = signedInteger(String(text.dropLast(unit.suffix.count))) else { continue }
            let (bytes, overflow) = Int(value).multipliedReportingOverflow(by: unit.factor)
            return overflow ? nil : bytes
        }
        return signedInteger(text).map { Int($0) }
    }

    /// `20/min`, `1/s`, `600/h`: a number of requests per period.
    public static func rate(_ text: String) -> RateLimit? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = signedInteger(String(parts[0])) else { return nil }
        let period: Duration
        switch parts[1].lowercased() {
        case "s", "sec", "second": period = .seconds(1)
        case "min", "minute": period = .seconds(60)
        case "h", "hour": period = .seconds(3600)
        default: return nil
        }
        return RateLimit(requests: Int(count), per: period)
    }

    /// `10%`, `2.5%` → a fraction (`0.1`, `0.025`).
    public static func percentage(_ text: String) -> Double? {
        guard text.hasSuffix("%"), let value = Double(text.dropLast()), value.isFinite,
            text.first.map({ $0.isNumber || $0 == "-" || $0 == "." }) == true
        else { return nil }
        return value / 100
    }

    /// A decimal integer with an optional leading `-`; no `+`, spaces, or underscores.
    static func signedInteger(_ text: String) -> Int64? {
        guard isSignedInteger(text) else { return nil }
        return Int64(text)
    }

    /// True when `text` is written as ``signedInteger(_:)`` reads it, whatever its size.
    static func isSignedInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
