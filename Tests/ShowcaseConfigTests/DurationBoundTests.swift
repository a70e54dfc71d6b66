import ShowcaseConfig
import Testing

/// Durations in the configuration are bounded (SPEC §20): a value the daemon would overflow adding to a time or
/// scaling is a config error with its place, never a trap after the first refresh.
@Suite("Duration bounds")
struct DurationBoundTests {
    @Test(
        "reads a number too large for 64 bits, or whose seconds overflow, as longer than any bound, not as a trap",
        arguments: ["99999999999999999999d", "9223372036854775807d", "9223372036854775s", "99999999999999999999ms"])
    func hugeNumbers(text: String) throws {
        let value = try #require(ConfigValue.duration(text))
        #expect(value > .seconds(365 * 86_400))
    }

    @Test("reads a huge negative number as negative", arguments: ["-99999999999999999999d", "-9223372036854775807d"])
    func hugeNegative(text: String) throws {
        #expect(try #require(ConfigValue.duration(text)) < .zero)
    }

    @Test(
        "refuses refresh.interval, refresh.retry and lookup.timeout over 365d with file:line:column",
        arguments: [
            ("refresh:\n  interval: 9223372036854775s\n", "refresh.interval", "9223372036854775s", 4, 13),
            ("refresh:\n  interval: 366d\n", "refresh.interval", "366d", 4, 13),
            ("refresh:\n  interval: 99999999999999999999d\n", "refresh.interval", "99999999999999999999d", 4, 13),
            ("lookup:\n  timeout: 9223372036854775807s\n", "lookup.timeout", "9223372036854775807s", 4, 12),
        ])
    func yearBound(yaml: String, key: String, text: String, line: Int, column: Int) throws {
        let error = try onlyError(minimalHosts + yaml)
        #expect(error?.code == .invalidValue)
        #expect(error?.line == line)
        #expect(error?.column == column)
        #expect(error?.message == "'\(key)' must be at most 365d, found '\(text)'")
    }

    @Test("refuses refresh.retry over 365d even under a refresh.interval that is over it too")
    func retryBound() throws {
        let all = try errors(minimalHosts + "refresh:\n  interval: 400d\n  retry: 99999999999999999999d\n")
        #expect(all.map(\.message).contains("'refresh.retry' must be at most 365d, found '99999999999999999999d'"))
        #expect(all.map(\.message).contains("'refresh.interval' must be at most 365d, found '400d'"))
    }

    @Test("refuses metrics.interval over 1d")
    func metricsBound() throws {
        let error = try onlyError(minimalHosts + "metrics:\n  interval: 25h\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 4)
        #expect(error?.column == 13)
        #expect(error?.message == "'metrics.interval' must be at most 1d, found '25h'")
    }

    @Test("accepts the bounds themselves")
    func atTheBounds() throws {
        let yaml =
            minimalHosts + "refresh:\n  interval: 365d\n  retry: 365d\nlookup:\n  timeout: 365d\n"
            + "metrics:\n  interval: 1d\n"
        let directory = try TemporaryDirectory(files: ["showcase.yaml": yaml])
        let configuration = try ConfigLoader.load(path: directory.file("showcase.yaml"), defaults: testDefaults)
        #expect(configuration.refresh.interval == .seconds(365 * 86_400))
        #expect(configuration.refresh.retry == .seconds(365 * 86_400))
        #expect(configuration.lookup.timeout == .seconds(365 * 86_400))
        #expect(configuration.metrics.interval == .seconds(86_400))
    }
}
