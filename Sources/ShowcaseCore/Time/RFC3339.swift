import FoundationEssentials

/// RFC 3339 timestamps in UTC, written by arithmetic (no formatter, no ICU, no time zone database): the form every
/// reply, export document and log line uses, `2026-11-29T14:18:43Z`, or with milliseconds
/// `2026-12-01T18:00:00.123Z` for log lines.
///
/// The fraction is cut, never rounded, so a timestamp never names a later instant than the one it shows (a roster
/// fetched at 14:18:43.9 is not "fetched at 14:18:44").
public enum RFC3339 {
    /// `date` in UTC with whole seconds (`2026-11-29T14:18:43Z`).
    public static func seconds(_ date: Date) -> String {
        format(date, milliseconds: false)
    }

    /// `date` in UTC with milliseconds (`2026-12-01T18:00:00.123Z`).
    public static func milliseconds(_ date: Date) -> String {
        format(date, milliseconds: true)
    }

    /// `text` as an RFC 3339 timestamp, with or without a fraction, in UTC or with an offset (what the daemon
    /// writes, and what `ISO8601DateFormatter` read, with or without `.withFractionalSeconds`); nil otherwise.
    public static func parse(_ text: String) -> Date? {
        try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    private static func format(_ date: Date, milliseconds: Bool) -> String {
        let interval = date.timeIntervalSince1970
        // Whole seconds as the floor of the interval; milliseconds from the nearest microsecond, so a stored
        // .123 that is 0.12299999 in binary still reads .123.
        let micros = milliseconds ? Int64((interval * 1_000_000).rounded()) : Int64(interval.rounded(.down)) * 1_000_000
        let seconds = floorDivision(micros, 1_000_000)
        let days = floorDivision(seconds, 86_400)
        let ofDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
        text += "\(padded(ofDay / 3600, 2)):\(padded(ofDay / 60 % 60, 2)):\(padded(ofDay % 60, 2))"
        if milliseconds { text += ".\(padded((micros - seconds * 1_000_000) / 1000, 3))" }
        return text + "Z"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
