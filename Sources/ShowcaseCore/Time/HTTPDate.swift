import FoundationEssentials

/// The HTTP date of a `Retry-After` header (RFC 9110's IMF-fixdate, `Wed, 21 Oct 2015 07:28:00 GMT`), read by
/// arithmetic: no formatter, no ICU. The forms a `DateFormatter` with `EEE, dd MMM yyyy HH:mm:ss zzz` read
/// for English day and month names in GMT (or UTC) are read, in any case and with the comma optional as its
/// lenient parsing had it; anything else is nil.
public enum HTTPDate {
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The instant `text` names, or nil when it is not an HTTP date.
    public static func parse(_ text: String) -> Date? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        let weekday = words.first.map { $0.hasSuffix(",") ? $0.dropLast() : $0[...] }
        guard words.count == 6, let weekday, days.contains(weekday.lowercased()),
            let day = Int(words[1]), (1...31).contains(day),
            let monthIndex = months.firstIndex(of: words[2].lowercased()),
            words[3].count == 4, let year = Int(words[3]),
            ["GMT", "UTC"].contains(words[5].uppercased())
        else { return nil }
        let clock = words[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
