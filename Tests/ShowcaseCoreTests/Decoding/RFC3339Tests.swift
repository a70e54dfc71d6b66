import Foundation
import ShowcaseCore
import Testing

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    @Test(
        "dates read as UTC civil time, across leap days, centuries and before 1970",
        arguments: [
            (1_796_148_000.123, "2026-12-01T18:00:00Z", "2026-12-01T18:00:00.123Z"),
            (1_709_251_199.999, "2024-02-29T23:59:59Z", "2024-02-29T23:59:59.999Z"),
            (951_868_800, "2000-03-01T00:00:00Z", "2000-03-01T00:00:00.000Z"),
            (0, "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z"),
            (-0.5, "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.500Z"),
        ])
    func civil(seconds: Double, whole: String, milliseconds: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(RFC3339.seconds(date) == whole)
        #expect(RFC3339.milliseconds(date) == milliseconds)
    }

    @Test("whole seconds are cut, never rounded up: 14:18:43.9 is 14:18:43")
    func cut() {
        #expect(RFC3339.seconds(Date(timeIntervalSince1970: 1_795_961_923.9)) == "2026-11-29T14:18:43Z")
        #expect(RFC3339.milliseconds(Date(timeIntervalSince1970: 1_795_961_923.9996)) == "2026-11-29T14:18:43.999Z")
    }

    @Test(
        "parsing is strict: an impossible date, time or offset, or a year outside 0001–9999, is no date (never rolled over)",
        arguments: [
            "0000-01-01T00:00:00Z", "2026-02-30T25:61:61Z", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
            "2026-04-31T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z",
            "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00+01:60", "0001-01-01T00:00:00+00:01",
            "9999-12-31T23:59:59-00:01", "2026-01-01T00:00:00.Z", "2026-1-01T00:00:00Z", "+2026-01-01T00:00:00Z",
            "2026-01-01T00:00:00Zjunk", "2026-01-01T00:00:00+0100", "９９９９-01-01T00:00:00Z",
        ])
    func strict(text: String) {
        #expect(RFC3339.parse(text) == nil, "\(text)")
    }

    @Test("the bounds and real leap days parse, and read back as written")
    func bounds() throws {
        for text in ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2024-02-29T12:00:00Z", "2000-02-29T00:00:00Z"] {
            let date = try #require(RFC3339.parse(text), "\(text)")
            #expect(RFC3339.seconds(date) == text)
        }
        #expect(RFC3339.parse("1900-02-29T00:00:00Z") == nil, "1900 is no leap year")
        #expect(RFC3339.parse("2026-11-29t14:00:00.250+02:00")?.timeIntervalSince1970 == 1_795_953_600.25)
    }

    @Test("a date outside 0001–9999 (read from a planted file) is written as the nearest bound, never trapping")
    func formatBounds() {
        #expect(RFC3339.seconds(Date(timeIntervalSince1970: -1e300)) == "0001-01-01T00:00:00Z")
        #expect(RFC3339.seconds(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
        #expect(RFC3339.milliseconds(Date(timeIntervalSince1970: .infinity)) == "9999-12-31T23:59:59.000Z")
        #expect(RFC3339.seconds(Date(timeIntervalSince1970: .nan)) == "0001-01-01T00:00:00Z")
    }
}
