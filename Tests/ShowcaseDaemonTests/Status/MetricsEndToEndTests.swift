import Foundation
import Testing

/// `Admin.Metrics` and `metrics.textfile` from the real daemon: promtool-clean, counters that move when the
/// daemon works, a textfile kept current through reloads and write failures.
@Suite("Metrics from the running daemon", .serialized)
struct MetricsEndToEndTests {
    static func metricsText(_ bed: TestBed) throws -> String {
        let reply = try bed.client().call("io.showcase.Admin.Metrics")
        return try #require(reply.string("text"), "\(reply)")
    }

    /// The value of the sample whose name and labels are `series` exactly, e.g. `showcase_config_generation`.
    static func sample(_ text: String, _ series: String) -> Int? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
    }

    static let getCalls = #"showcase_varlink_calls_total{method="io.showcase.Roster.Get"}"#

    @Test("Admin.Metrics is promtool-clean and its counters move: a Get adds to the Get count, a refresh to requests")
    func countersMove() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let before = try Self.metricsText(bed)
        let (status, output) = try MetricsTests.run(try MetricsTests.promtool(), ["check", "metrics"], input: before)
        #expect(status == 0, "promtool: \(output)\n\(before)")
        #expect(before.contains("showcase_build_info{version=\""))
        #expect(Self.sample(before, "showcase_config_generation") == 1)
        #expect(Self.sample(before, #"showcase_roster_state{storefront="de",state="fresh"}"#) == 1)
        #expect(Self.sample(before, #"showcase_roster_state{storefront="de",state="stale"}"#) == 0)
        #expect((Self.sample(before, #"showcase_roster_apps{storefront="de"}"#) ?? 0) > 0, "\(before)")
        #expect(Self.sample(before, #"showcase_roster_age_seconds{storefront="us"}"#) != nil, "\(before)")
        // Unknown methods are refused before dispatch, so they can never become a label.
        _ = try bed.client().call("io.showcase.Roster.Nonsense")

        let gets = try #require(Self.sample(before, Self.getCalls), "\(before)")
        let requests = try #require(Self.sample(before, "showcase_upstream_requests_total"))
        _ = try bed.get("de")
        _ = try bed.get("us")
        try bed.refresh("de")
        let after = try Self.metricsText(bed)
        #expect(Self.sample(after, Self.getCalls) == gets + 2, "\(after)")
        #expect((Self.sample(after, "showcase_upstream_requests_total") ?? 0) > requests, "\(after)")
        #expect(!after.contains("Nonsense"))
        #expect(
            (Self.sample(after, #"showcase_varlink_calls_total{method="io.showcase.Admin.Metrics"}"#) ?? 0) >= 1)
    }

    @Test("showcasectl metrics prints the text for root and is refused (77) to a non-admin uid")
    func showcasectlMetrics() throws {
        let bed = try TestBed()
        try bed.start()
        let root = try HealthCheckTests.ctl(["--socket", bed.socketPath, "metrics"])
        #expect(root.status == 0, "\(root)")
        #expect(root.stdout.contains("# TYPE showcase_upstream_requests_total counter\n"), "\(root)")
        let nobody = try HealthCheckTests.ctl(["--socket", bed.socketPath, "metrics"], asNobody: true)
        #expect(nobody.status == 77, "\(nobody)")
    }

    @Test("metrics.textfile is rewritten every interval, moves with a reload, and a failed write stops nothing")
    func textfile() throws {
        let bed = try TestBed()
        let first = bed.directory.appendingPathComponent("first.prom")
        bed.extra = "metrics:\n  textfile: \(first.path)\n  interval: 1s\n"
        try bed.start()
        try waitFor(timeout: .seconds(20)) { FileManager.default.fileExists(atPath: first.path) }
        let initial = try String(contentsOf: first, encoding: .utf8)
        #expect(initial.contains("# TYPE showcase_roster_state gauge"), "\(initial)")
        let mode = try FileManager.default.attributesOfItem(atPath: first.path)[.posixPermissions] as? Int
        #expect(mode == 0o644)
        // Rewritten: a Get made now shows up in the file within a few intervals.
        let gets = Self.sample(initial, Self.getCalls) ?? 0
        _ = try bed.get("de")
        try waitFor(timeout: .seconds(20)) {
            let text = (try? String(contentsOf: first, encoding: .utf8)) ?? ""
            return (Self.sample(text, Self.getCalls) ?? 0) > gets
        }

        // A directory that does not exist: the write fails, is logged, and the daemon carries on serving.
        let missing = bed.directory.appendingPathComponent("missing", isDirectory: true)
        let second = missing.appendingPathComponent("second.prom")
        bed.extra = "metrics:\n  textfile: \(second.path)\n  interval: 1s\n"
        #expect(try bed.reload()["generation"] as? Int == 2)
        try waitFor(timeout: .seconds(20)) { bed.daemon?.log.contains("could not write the metrics textfile") == true }
        #expect(try bed.get("de").string("state") == "fresh")
        try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: true)
        try waitFor(timeout: .seconds(20)) { FileManager.default.fileExists(atPath: second.path) }
        let moved = try String(contentsOf: second, encoding: .utf8)
        #expect(Self.sample(moved, "showcase_config_generation") == 2, "\(moved)")
        // The line follows the write: the file can be seen before the daemon's log has it.
        try waitFor(timeout: .seconds(10)) {
            bed.daemon?.log.contains("wrote the metrics textfile \(second.path) again") == true
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: missing.path) == ["second.prom"],
            "no temporary file is left beside it")
    }
}
