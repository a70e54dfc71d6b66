import ShowcaseConfig
import Testing

@Suite("Value notations")
struct ConfigValueTests {
    @Test(
        "reads durations with ms, s, m, h and d",
        arguments: [
            ("500ms", Duration.milliseconds(500)), ("30s", .seconds(30)), ("5m", .seconds(300)),
            ("24h", .seconds(86_400)), ("7d", .seconds(604_800)), ("-5m", .seconds(-300)),
        ])
    func durations(text: String, expected: Duration) {
        #expect(ConfigValue.duration(text) == expected)
    }

    @Test(
        "refuses durations without a unit or with an unknown one",
        arguments: ["30", "tomorrow", "5 m", "1h30m", "5w", "", "m"])
    func notDurations(text: String) {
        #expect(ConfigValue.duration(text) == nil)
    }

    @Test(
        "reads sizes in binary units or bare bytes",
        arguments: [("512KiB", 524_288), ("8MiB", 8_388_608), ("1GiB", 1_073_741_824), ("100B", 100), ("4096", 4096)])
    func sizes(text: String, expected: Int) {
        #expect(ConfigValue.byteSize(text) == expected)
    }

    @Test("refuses ambiguous decimal size units", arguments: ["8MB", "8 MiB", "MiB", "8mib"])
    func notSizes(text: String) {
        #expect(ConfigValue.byteSize(text) == nil)
    }

    @Test("reads rates per second, minute and hour")
    func rates() {
        #expect(ConfigValue.rate("20/min") == RateLimit(requests: 20, per: .seconds(60)))
        #expect(ConfigValue.rate("2/s") == RateLimit(requests: 2, per: .seconds(1)))
        #expect(ConfigValue.rate("600/h") == RateLimit(requests: 600, per: .seconds(3600)))
        #expect(ConfigValue.rate("20/day") == nil)
        #expect(ConfigValue.rate("twenty/min") == nil)
        #expect(ConfigValue.rate("20") == nil)
        #expect(RateLimit(requests: 20, per: .seconds(60)).interval == .seconds(3))
    }

    @Test("reads percentages as fractions")
    func percentages() {
        #expect(ConfigValue.percentage("10%") == 0.1)
        #expect(ConfigValue.percentage("2.5%") == 0.025)
        #expect(ConfigValue.percentage("10") == nil)
        #expect(ConfigValue.percentage("%") == nil)
        #expect(ConfigValue.percentage("ten%") == nil)
    }
}
