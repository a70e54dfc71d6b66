import FoundationEssentials

/// RFC 3339 timestamps in UTC, written by arithmetic (no formatter, no ICU, no time zone database): the form every
/// reply, export document and log line uses, `2026-11-29T14:18:43Z`, or with milliseconds
/// `2026-12-01T18:00:00.123Z` for log lines.
///
/// Years are 0001–9999 both ways: ``parse(_:)`` takes no other and never rolls an impossible date over, and a
/// date outside is written as the nearest bound.
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

    /// The first instant a timestamp may name: 0001-01-01T00:00:00Z.
    public static let earliest = Date(timeIntervalSince1970: -62_135_596_800)
    /// The last instant a timestamp may name: 9999-12-31T23:59:59Z (four-digit years only, as RFC 3339 has them).
    public static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    /// `text` as an RFC 3339 timestamp (`2026-11-29T14:18:43Z`, with or without a fraction, in UTC or with an
    /// offset `+01:00`), or nil for anything else.
    ///
    /// Strict, never rolled over: the month 1–12, the day within its month (29 February only in a leap year), the
    /// hour 0–23, minute and second 0–59, an offset within ±23:59, and the instant it names within
    /// ``earliest``…``latest`` once the offset is applied. `2026-02-30T25:61:61Z` and `0000-01-01T00:00:00Z` are
    /// nil, not a date in March or a year that cannot be written back.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // yyyy-mm-ddThh:mm:ss is 19 bytes; a fraction of more than nanoseconds is no timestamp anyone writes.
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<start + count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        func byte(_ index: Int, is characters: String) -> Bool { characters.utf8.contains(bytes[index]) }
        guard let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"),
            let day = number(8, 2), byte(10, is: "Tt"), let hour = number(11, 2), byte(13, is: ":"),
            let minute = number(14, 2), byte(16, is: ":"), let second = number(17, 2)
        else { return nil }
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysIn(month, of: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var index = 19
        var fraction = 0.0
        if byte(index, is: ".") {
            index += 1
            var scale = 0.1
            let first = index
            while index < bytes.count, let digit = number(index, 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > first else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset: Int64 = 0
        if byte(index, is: "Zz") {
            index += 1
        } else if byte(index, is: "+-"), index + 6 == bytes.count, let hours = number(index + 1, 2),
            byte(index + 3, is: ":"), let minutes = number(index + 4, 2), hours <= 23, minutes <= 59
        {
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = Int64(HTTPDate.daysSinceEpoch(year: Int(year), month: Int(month), day: Int(day)))
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        let date = Date(timeIntervalSince1970: Double(seconds) + fraction)
        return date >= earliest && date < latest.addingTimeInterval(1) ? date : nil
    }

    /// The days of `month` in `year` of the proleptic Gregorian calendar.
    static func daysIn(_ month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `date` written within ``earliest``…``latest``: an instant outside (a date read from a planted file) is
    /// written as the bound it passed, never as a year of five digits or a minus sign, and never traps.
    private static func format(_ date: Date, milliseconds: Bool) -> String {
        let bounded = date.timeIntervalSince1970.isNaN ? earliest : min(max(date, earliest), latest)
        let interval = bounded.timeIntervalSince1970
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
