import Foundation
@preconcurrency import Glibc
import ShowcaseAPI
import ShowcaseDaemon
import Testing

/// The Prometheus text exposition of a metrics snapshot, and the atomic textfile node_exporter reads.
@Suite("Metrics")
struct MetricsTests {
    static let snapshot = MetricsSnapshot(
        version: "0.1.0", configGeneration: 3, upstreamRequests: 42, upstreamFailures: 5, upstreamThrottled: 2,
        storefronts: [
            StorefrontMetrics(storefront: "us", apps: 12, ageSeconds: 300, state: .fresh),
            StorefrontMetrics(storefront: "ca", language: "fr", apps: 11, ageSeconds: 90_000, state: .stale),
            StorefrontMetrics(storefront: "ca", language: "en", apps: 12, ageSeconds: 100, state: .fresh),
            StorefrontMetrics(storefront: "jp", apps: 0, ageSeconds: nil, state: .warming),
            StorefrontMetrics(storefront: "de", apps: 9, ageSeconds: 4000, state: .failed),
        ],
        varlinkCalls: ["io.showcase.Roster.Get": 1234, "io.showcase.Admin.Status": 7])

    /// Runs a program with `input` on stdin; returns its exit status and what it printed (both streams).
    static func run(_ executable: String, _ arguments: [String], input: String) throws -> (Int32, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputURL = directory.appendingPathComponent("in")
        let outputURL = directory.appendingPathComponent("out")
        try input.write(to: inputURL, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        try output.close()
        return (process.terminationStatus, try String(contentsOf: outputURL, encoding: .utf8))
    }

    static func promtool() throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/promtool" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(path, "promtool is missing: run scripts/deps.sh (Debian package prometheus)")
    }

    @Test("renders every documented metric with HELP and TYPE, sorted samples, one state set to 1 per roster")
    func exactText() {
        let small = MetricsSnapshot(
            version: "0.1.0", configGeneration: 2, upstreamRequests: 10, upstreamFailures: 1, upstreamThrottled: 1,
            storefronts: [
                StorefrontMetrics(storefront: "jp", apps: 0, ageSeconds: nil, state: .warming),
                StorefrontMetrics(storefront: "de", apps: 9, ageSeconds: 61, state: .stale),
            ],
            varlinkCalls: ["io.showcase.Roster.Get": 3, "io.showcase.Admin.Reload": 1],
            iconRequests: IconRequestCounts(
                ok: 4, refused: 2, failed: 1, reasons: [.hostNotAllowed: 1, .wrongSize: 1, .timeout: 1]))
        let expected = """
            # HELP showcase_build_info The running showcased's version, as a label; the value is always 1.
            # TYPE showcase_build_info gauge
            showcase_build_info{version="0.1.0"} 1
            # HELP showcase_config_generation Configuration generation being served: 1 at start, one more per \
            accepted reload.
            # TYPE showcase_config_generation gauge
            showcase_config_generation 2
            # HELP showcase_upstream_requests_total Requests sent to the lookup API since the daemon started.
            # TYPE showcase_upstream_requests_total counter
            showcase_upstream_requests_total 10
            # HELP showcase_upstream_failures_total Lookup API requests that failed (transport, HTTP status or \
            unusable body), throttled ones included.
            # TYPE showcase_upstream_failures_total counter
            showcase_upstream_failures_total 1
            # HELP showcase_upstream_throttled_total Lookup API requests answered with HTTP 403 or 429.
            # TYPE showcase_upstream_throttled_total counter
            showcase_upstream_throttled_total 1
            # HELP showcase_roster_apps Apps the roster serves for the default host and platform, without an OS filter \
            (as Status counts them).
            # TYPE showcase_roster_apps gauge
            showcase_roster_apps{storefront="de"} 9
            showcase_roster_apps{storefront="jp"} 0
            # HELP showcase_roster_age_seconds Seconds since the roster was fetched; absent for a roster never fetched.
            # TYPE showcase_roster_age_seconds gauge
            showcase_roster_age_seconds{storefront="de"} 61
            # HELP showcase_roster_state 1 for the roster's current state (fresh, stale, warming, unavailable, \
            failed), 0 for the others.
            # TYPE showcase_roster_state gauge
            showcase_roster_state{storefront="de",state="fresh"} 0
            showcase_roster_state{storefront="de",state="stale"} 1
            showcase_roster_state{storefront="de",state="warming"} 0
            showcase_roster_state{storefront="de",state="unavailable"} 0
            showcase_roster_state{storefront="de",state="failed"} 0
            showcase_roster_state{storefront="jp",state="fresh"} 0
            showcase_roster_state{storefront="jp",state="stale"} 0
            showcase_roster_state{storefront="jp",state="warming"} 1
            showcase_roster_state{storefront="jp",state="unavailable"} 0
            showcase_roster_state{storefront="jp",state="failed"} 0
            # HELP showcase_varlink_calls_total Varlink calls answered since the daemon started, by method.
            # TYPE showcase_varlink_calls_total counter
            showcase_varlink_calls_total{method="io.showcase.Admin.Reload"} 1
            showcase_varlink_calls_total{method="io.showcase.Roster.Get"} 3
            # HELP showcase_icon_requests_total Icon downloads for the export since the daemon started, by result (ok, refused, failed); not lookup API requests.
            # TYPE showcase_icon_requests_total counter
            showcase_icon_requests_total{result="ok"} 4
            showcase_icon_requests_total{result="refused"} 2
            showcase_icon_requests_total{result="failed"} 1
            # HELP showcase_icon_failures_total Icon downloads refused or failed since the daemon started, by why \
            (every reason listed, 0 included).
            # TYPE showcase_icon_failures_total counter
            showcase_icon_failures_total{reason="bad_url"} 0
            showcase_icon_failures_total{reason="connection"} 0
            showcase_icon_failures_total{reason="host_not_allowed"} 1
            showcase_icon_failures_total{reason="http_status"} 0
            showcase_icon_failures_total{reason="not_image"} 0
            showcase_icon_failures_total{reason="redirect"} 0
            showcase_icon_failures_total{reason="timeout"} 1
            showcase_icon_failures_total{reason="too_large"} 0
            showcase_icon_failures_total{reason="wrong_size"} 1

            """
        #expect(PrometheusExposition.render(small) == expected)
    }

    @Test("every sample belongs to a family declared by HELP then TYPE, and counters end in _total")
    func structure() throws {
        var declared: [String: String] = [:]
        var lastHelp: String?
        for line in PrometheusExposition.render(Self.snapshot).split(separator: "\n").map(String.init) {
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            if line.hasPrefix("# HELP ") {
                lastHelp = words[2]
            } else if line.hasPrefix("# TYPE ") {
                #expect(lastHelp == words[2], "TYPE \(words[2]) without its HELP just before")
                #expect(declared[words[2]] == nil, "\(words[2]) declared twice")
                declared[words[2]] = words[3]
            } else {
                let name = String(line.prefix { $0 != "{" && $0 != " " })
                #expect(declared[name] != nil, "sample \(line) before its TYPE")
            }
        }
        for (name, type) in declared {
            #expect((type == "counter") == name.hasSuffix("_total"), "\(name) is a \(type)")
        }
        let spec = [
            "showcase_build_info", "showcase_config_generation", "showcase_upstream_requests_total",
            "showcase_upstream_failures_total", "showcase_upstream_throttled_total", "showcase_roster_apps",
            "showcase_roster_age_seconds", "showcase_roster_state", "showcase_varlink_calls_total",
            "showcase_icon_requests_total", "showcase_icon_failures_total",
        ]
        #expect(Set(declared.keys) == Set(spec))
    }

    @Test("a roster never fetched has no age sample, a language gets its own label, each roster has one state")
    func rosterSamples() {
        let lines = PrometheusExposition.render(Self.snapshot).split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.hasPrefix("showcase_roster_age_seconds{storefront=\"jp\"") })
        #expect(lines.contains("showcase_roster_age_seconds{storefront=\"ca\",language=\"fr\"} 90000"))
        #expect(lines.contains("showcase_roster_apps{storefront=\"ca\",language=\"en\"} 12"))
        let states = lines.filter { $0.hasPrefix("showcase_roster_state{") }
        // Every roster has one sample per state the daemon knows: fresh, stale, warming, unavailable, failed.
        #expect(states.count == Self.snapshot.storefronts.count * 5)
        #expect(
            states.filter { $0.hasSuffix(" 1") }.sorted() == [
                "showcase_roster_state{storefront=\"ca\",language=\"en\",state=\"fresh\"} 1",
                "showcase_roster_state{storefront=\"ca\",language=\"fr\",state=\"stale\"} 1",
                "showcase_roster_state{storefront=\"de\",state=\"failed\"} 1",
                "showcase_roster_state{storefront=\"jp\",state=\"warming\"} 1",
                "showcase_roster_state{storefront=\"us\",state=\"fresh\"} 1",
            ])
    }

    @Test("label values escape backslash, double quote and newline")
    func escaping() {
        #expect(PrometheusExposition.escapeLabelValue(#"a\b"c"# + "\nd") == #"a\\b\"c\nd"#)
        let text = PrometheusExposition.render(
            MetricsSnapshot(version: "1.0 \"beta\"\\x\n2", configGeneration: 1))
        #expect(text.contains(#"showcase_build_info{version="1.0 \"beta\"\\x\n2"} 1"#))
        // 11 families (HELP and TYPE each), 5 single samples, the 3 icon results and the icon failure reasons.
        #expect(
            text.split(separator: "\n").count == 11 * 2 + 5 + 3 + IconFailureReason.allCases.count,
            "an unescaped newline split a line")
    }

    @Test("promtool check metrics accepts the rendered text, and rejects text that breaks the conventions")
    func promtoolAccepts() throws {
        let promtool = try Self.promtool()
        let (status, output) = try Self.run(
            promtool, ["check", "metrics"], input: PrometheusExposition.render(Self.snapshot))
        #expect(status == 0, "promtool: \(output)")
        #expect(output.isEmpty, "promtool: \(output)")
        let empty = PrometheusExposition.render(MetricsSnapshot(version: "0.1.0", configGeneration: 1))
        let (emptyStatus, emptyOutput) = try Self.run(promtool, ["check", "metrics"], input: empty)
        #expect(emptyStatus == 0 && emptyOutput.isEmpty, "promtool on a daemon with no rosters yet: \(emptyOutput)")
        // The check can fail: a counter without _total is reported.
        let bad = "# HELP showcase_requests Requests.\n# TYPE showcase_requests counter\nshowcase_requests 1\n"
        let (badStatus, badOutput) = try Self.run(promtool, ["check", "metrics"], input: bad)
        #expect(badStatus != 0 && badOutput.contains("_total"), "promtool let a counter without _total pass")
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("textfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the textfile is replaced by rename, readable by node_exporter whatever the umask, with no leftovers")
    func textfileReplaced() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("showcase.prom").path
        let textfile = MetricsTextfile(path: path)
        let previous = umask(0o077)
        defer { umask(previous) }
        try textfile.write("first\n")
        var before = stat()
        #expect(stat(path, &before) == 0)
        #expect(before.st_mode & 0o777 == 0o644)
        let text = PrometheusExposition.render(Self.snapshot)
        try textfile.write(text)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_ino != before.st_ino, "the file was rewritten in place, not replaced")
        #expect(after.st_mode & 0o777 == 0o644)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["showcase.prom"])
    }

    @Test("a textfile that cannot be written throws a sentence naming it, and leaves the old file and no temporary")
    func textfileFailure() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("absent/showcase.prom").path
        #expect {
            try MetricsTextfile(path: missing).write("x 1\n")
        } throws: { error in
            let description = "\(error)"
            return description.contains(missing) && description.contains("metrics.textfile")
                && (error as? MetricsTextfileError)?.step == "mkstemp"
        }
        // The target is a directory: rename fails after the temporary file was written; it is removed again.
        let occupied = directory.appendingPathComponent("showcase.prom")
        try FileManager.default.createDirectory(at: occupied, withIntermediateDirectories: true)
        try "kept\n".write(to: occupied.appendingPathComponent("inside"), atomically: true, encoding: .utf8)
        #expect(throws: MetricsTextfileError.self) { try MetricsTextfile(path: occupied.path).write("x 1\n") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["showcase.prom"])
        #expect(try String(contentsOf: occupied.appendingPathComponent("inside"), encoding: .utf8) == "kept\n")
    }
}
