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
}
