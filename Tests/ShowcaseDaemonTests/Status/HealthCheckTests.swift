import Foundation
import Testing

/// `Roster.Health` and `showcasectl check` through the real binaries: every exit status of the monitoring-plugin
/// convention, produced by the daemon's real states, and Health open to a uid that Status refuses.
@Suite("Health and showcasectl check", .serialized)
struct HealthCheckTests {
    /// The `showcasectl` of the build under test (the sanitized one under `make sanitize`).
    static let showcasectl = DaemonProcess.showcasectl.path

    /// What one `showcasectl` run printed and how it exited.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `showcasectl ARGUMENTS` (as uid/gid 65534 through setpriv when `asNobody`).
    static func ctl(_ arguments: [String], asNobody: Bool = false) throws -> Run {
        let process = Process()
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", showcasectl] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: showcasectl)
            process.arguments = arguments
        }
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `showcasectl --socket SOCKET check EXTRA`, checked to print exactly one plugin line.
    static func check(_ bed: TestBed, _ extra: [String] = [], asNobody: Bool = false) throws -> Run {
        let run = try ctl(["--socket", bed.socketPath, "check"] + extra, asNobody: asNobody)
        #expect(run.stdout.hasSuffix("\n") && run.stdout.dropLast().split(separator: "\n").count == 1, "\(run)")
        #expect(run.stdout.hasPrefix("SHOWCASE "), "\(run)")
        return run
    }

    @Test("every warm storefront fresh: OK, exit 0, perfdata per state and the oldest age against the limits")
    func freshIsOK() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let health = try bed.client().call("io.showcase.Roster.Health")
        #expect(health.string("state") == "ok", "\(health)")
        #expect(health["refreshIntervalSeconds"] as? Int == 3600)
        let entries = health["storefronts"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["code"] as? String } == ["de", "us"])
        #expect(entries.allSatisfy { $0["state"] as? String == "fresh" && $0["ageSeconds"] is Int })

        let run = try Self.check(bed)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix("SHOWCASE OK - 2 storefronts: 2 fresh | "), "\(run)")
        #expect(run.stdout.contains("fresh=2;;;0 stale=0;;;0 warming=0;;;0 unavailable=0;;;0 failed=0;;;0"))
        // Warning at refresh.interval (1h), critical at the default max age, twice that.
        #expect(run.stdout.range(of: #"oldest_age=\d+s;3600;7200;0\n$"#, options: .regularExpression) != nil, "\(run)")
        let limited = try Self.check(bed, ["--max-age", "90m"])
        #expect(limited.stdout.contains(";3600;5400;0"), "\(limited)")
    }

    @Test("a uid that Status refuses may run check: Health is not admin-only")
    func unprivilegedCheck() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let status = try Self.ctl(["--socket", bed.socketPath, "status"], asNobody: true)
        #expect(status.status == 77, "\(status)")
        let run = try Self.check(bed, asNobody: true)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix("SHOWCASE OK - 2 storefronts: 2 fresh"), "\(run)")
    }

    @Test("stale within --max-age is WARNING (1); past it CRITICAL (2), naming the storefront and its age")
    func staleWarnsThenCritical() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        bed.interval = "2s"
        bed.retry = "500ms"
        try bed.start()
        try bed.waitUntilWarm()
        // Every later refresh fails in transport, so the roster can only age.
        bed.replay.inject(.status(500))
        try waitFor(timeout: .seconds(30)) { try bed.get("de").string("state") == "stale" }
        let health = try bed.client().call("io.showcase.Roster.Health")
        #expect(health.string("state") == "degraded", "\(health)")

        let warning = try Self.check(bed, ["--max-age", "1h"])
        #expect(warning.status == 1, "\(warning)")
        #expect(warning.stdout.hasPrefix("SHOWCASE WARNING - 1 storefront: 1 stale; de stale for "), "\(warning)")
        #expect(warning.stdout.contains("stale=1;;;0"))

        try waitFor(timeout: .seconds(30)) {
            let entry = (try bed.client().call("io.showcase.Roster.Health")["storefronts"] as? [[String: Any]])?.first
            return (entry?["ageSeconds"] as? Int ?? 0) > 1
        }
        let critical = try Self.check(bed, ["--max-age", "1s"])
        #expect(critical.status == 2, "\(critical)")
        #expect(critical.stdout.hasPrefix("SHOWCASE CRITICAL - "), "\(critical)")
        #expect(critical.stdout.contains("past the max age of 1s"), "\(critical)")
    }

    @Test("a storefront never fetched yet is WARNING (1)")
    func warmingWarns() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        // The identity request passes; the roster request waits longer than the test reads.
        bed.timeout = "30s"
        bed.replay.inject(.delay(.seconds(20)), matching: "entity=software")
        try bed.start()
        let health = try bed.client().call("io.showcase.Roster.Health")
        #expect(health.string("state") == "warming", "\(health)")
        let run = try Self.check(bed)
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.hasPrefix("SHOWCASE WARNING - 1 storefront: 1 warming; de warming"), "\(run)")
        #expect(run.stdout.contains("oldest_age=U;3600;7200;0"), "\(run)")
        bed.replay.clearFaults()
    }

    @Test("a diagnostic is CRITICAL (2) naming it; so is Unavailable (transport failed, nothing cached)")
    func diagnosticsAndUnavailableAreCritical() throws {
        let bed = try TestBed()
        bed.storefronts = ["de", "us"]
        bed.replay.inject(.status(500), matching: "limit=200&country=us")
        bed.replay.inject(.body("malformed.html"), matching: "limit=200&country=de")
        try bed.start()
        try bed.refresh()
        let health = try bed.client().call("io.showcase.Roster.Health")
        #expect(health.string("state") == "degraded", "\(health)")
        let entries = health["storefronts"] as? [[String: Any]] ?? []
        #expect(entries.first { $0["code"] as? String == "de" }?["state"] as? String == "failed", "\(health)")
        #expect(
            entries.first { $0["code"] as? String == "de" }?["error"] as? String
                == "io.showcase.Roster.MalformedResponse", "\(health)")
        #expect(entries.first { $0["code"] as? String == "us" }?["state"] as? String == "unavailable", "\(health)")
        #expect(
            entries.first { $0["code"] as? String == "us" }?["error"] as? String == "io.showcase.Roster.Unavailable")

        let run = try Self.check(bed)
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.hasPrefix("SHOWCASE CRITICAL - 2 storefronts: 1 unavailable, 1 failed; "), "\(run)")
        #expect(run.stdout.contains("de failed (MalformedResponse)"), "\(run)")
        #expect(run.stdout.contains("us unavailable (Unavailable)"), "\(run)")
    }

    @Test("no daemon on the socket is UNKNOWN (3) on stdout, not the 69 of the other commands")
    func unreachableIsUnknown() throws {
        let bed = try TestBed()
        let run = try Self.check(bed)
        #expect(run.status == 3, "\(run)")
        #expect(run.stdout.hasPrefix("SHOWCASE UNKNOWN - showcased is not running"), "\(run)")
        #expect(!run.stdout.contains(" | "), "no perfdata without an answer: \(run)")
    }
}
