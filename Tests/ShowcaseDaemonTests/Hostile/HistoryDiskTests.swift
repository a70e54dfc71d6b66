import Foundation
import Testing

/// SPEC §20 through the binary: a state directory restored from a cache or written by another user holds planted
/// history logs. Each is read back as untrusted input: never a trap, never a hostile URL served, never a reply
/// past the socket's limit, never a history silently emptied.
@Suite("History files as untrusted input", .serialized)
struct HistoryDiskTests {
    typealias H = HistoryTests

    static func historyFolder(_ bed: TestBed) -> URL {
        bed.directory.appendingPathComponent("state/history/\(TestBed.knotbook)", isDirectory: true)
    }

    static func logURL(_ bed: TestBed) -> URL { historyFolder(bed).appendingPathComponent("us.log") }

    /// One log line, as the daemon writes them, with `fields` changed.
    static func line(_ serial: Int, _ fields: [String: Any] = [:]) throws -> String {
        var entry: [String: Any] = [
            "serial": serial, "at": 1_800_000_000_000, "kind": "updated", "id": H.tideLog, "name": "TideLog",
            "platform": "ios", "storeUrl": "https://apps.apple.com/us/app/tidelog/id\(H.tideLog)?uo=4",
            "iconUrl": "https://is1-ssl.mzstatic.com/image/thumb/1/512x512bb.jpg", "version": "2.\(serial)",
        ]
        entry.merge(fields) { $1 }
        let data = try JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func plant(_ bed: TestBed, _ text: String) throws {
        try FileManager.default.createDirectory(at: historyFolder(bed), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: logURL(bed))
        chmod(logURL(bed).path, 0o600)
    }

    /// The files set aside in the bed's history folder.
    static func setAside(_ bed: TestBed) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: historyFolder(bed).path).filter { $0.contains(".bad-") }
    }

    func health(_ bed: TestBed) throws -> Reply { try bed.client().call("io.showcase.Roster.Health") }

    @Test(
        "a planted serial 9223372036854775807 never traps: the log is set aside and reported, the daemon keeps running and recording"
    )
    func maximumSerial() throws {
        let bed = try H.bed()
        try bed.start(environment: H.environment(bed))
        try HistoryTests().warm(bed)
        _ = try bed.daemon?.stop()
        try Self.plant(bed, try Self.line(1) + Self.line(9_223_372_036_854_775_807))

        try bed.overrideRoster("us", try HistoryTests().changedRoster(bed))
        try bed.start(environment: H.environment(bed))
        let refreshed = try bed.refresh("us")
        #expect(refreshed.error == nil, "\(refreshed) \(bed.daemon?.log ?? "")")
        #expect(bed.daemon?.process.isRunning == true, "the daemon must survive the change")
        #expect(try Self.setAside(bed).contains { $0.hasPrefix("us.log.bad-") }, "renamed *.bad-<time>")
        let health = try self.health(bed)
        #expect(health["state"] as? String == "degraded", "\(health)")
        let problems = health["problems"] as? [[String: Any]] ?? []
        #expect(problems.first?["kind"] as? String == "history" && problems.first?["storefront"] as? String == "us")
        let status = try bed.status()
        #expect((status["problems"] as? [[String: Any]])?.count == 1, "\(status)")
        #expect(bed.daemon?.log.contains("set aside") == true)
        // The roster that came after the set-aside started a new baseline; the serials carry on past the good ones.
        let changes = try HistoryTests().changes(bed)
        #expect(changes.int("latest") == 1, "\(changes)")
        try bed.overrideRoster("us", try HistoryTests().changedRoster(bed, tideLogVersion: "2.5.0"))
        #expect(try bed.refresh("us").error == nil)
        #expect(HistoryTests().serials(try HistoryTests().changes(bed)) == [2])

        // Removing the file set aside acknowledges the report.
        for name in try Self.setAside(bed) {
            try FileManager.default.removeItem(at: Self.historyFolder(bed).appendingPathComponent(name))
        }
        #expect(try self.health(bed)["problems"] == nil)
        #expect(bed.daemon?.process.isRunning == true)
    }

    @Test("a planted javascript:, data: or foreign-host URL is never served by Changes nor published in the feed")
    func hostileURLs() throws {
        let bed = try H.bed()
        bed.enableExport()
        bed.extra += "  feed: true\n"
        try bed.start(environment: H.environment(bed))
        try HistoryTests().warm(bed)
        _ = try bed.daemon?.stop()
        try Self.plant(
            bed,
            try Self.line(1, ["storeUrl": "javascript:alert(document.domain)//"])
                + Self.line(2, ["iconUrl": "data:image/png;base64,iVBORw0KGgo="])
                + Self.line(3, ["iconUrl": "https://evil.example/1.png"]) + Self.line(4))
        try bed.start(environment: H.environment(bed))
        let changes = try HistoryTests().changes(bed)
        #expect(HistoryTests().serials(changes) == [4], "\(changes)")
        #expect(changes.int("latest") == 4)
        try bed.export()
        let feed = try String(contentsOf: bed.exported("\(TestBed.knotbook)/us/ios.atom"), encoding: .utf8)
        #expect(!feed.contains("javascript:") && !feed.contains("data:") && !feed.contains("evil.example"), "\(feed)")
        #expect(feed.contains("/4</id>"), "the good entry is published")
        let log = bed.daemon?.log ?? ""
        #expect(log.components(separatedBy: "left out of Changes and the feeds").count == 2, "logged once: \(log)")
    }

    @Test("a huge history pages: no Changes reply past the socket's limit, and showcasectl changes follows more")
    func paging() throws {
        let bed = try H.bed()
        bed.extra = "history:\n  keep: 1500\n"
        try bed.start(environment: H.environment(bed))
        try HistoryTests().warm(bed)
        _ = try bed.daemon?.stop()
        // 1,200 entries of ~7.9 KiB: 1,000 of them are ~7.7 MiB of reply.
        let notes = String(repeating: "Tide tables for every harbour. ", count: 250)
        var text = ""
        for serial in 1...1200 { text += try Self.line(serial, ["releaseNotes": notes]) }
        try Self.plant(bed, text)
        try bed.start(environment: H.environment(bed))

        let first = try HistoryTests().changes(bed, ["limit": 1000])
        #expect(first.error == nil, "\(first)")
        #expect(first["more"] as? Bool == true, "cut by size, not closed")
        let firstSerials = HistoryTests().serials(first)
        #expect(firstSerials.count > 0 && firstSerials.count < 1000)
        #expect(firstSerials.last == 201, "the oldest of the newest 1,000 first")

        let run = try HealthCheckTests.ctl([
            "--socket", bed.socketPath, "--json", "changes", "--storefront", "us", "--limit", "1000",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let reply = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
        let serials = (reply["changes"] as? [[String: Any]] ?? []).compactMap { ($0["serial"] as? NSNumber)?.intValue }
        #expect(serials == Array((201...1200).reversed()), "every one of the newest 1,000, once, newest first")
        #expect(reply["latest"] as? Int == 1200)

        let since = try HealthCheckTests.ctl([
            "--socket", bed.socketPath, "--json", "changes", "--storefront", "us", "--since", "50", "--limit", "1000",
        ])
        let paged = try JSONSerialization.jsonObject(with: Data(since.stdout.utf8)) as? [String: Any]
        let after = (paged?["changes"] as? [[String: Any]] ?? []).compactMap { ($0["serial"] as? NSNumber)?.intValue }
        #expect(after == Array((51...1050).reversed()), "the oldest 1,000 after since")
        #expect(paged?["more"] as? Bool == true, "entries after 1050 remain")
    }

    @Test("a log larger than history.keep allows is set aside and reported, never read as empty; latest holds")
    func oversized() throws {
        let bed = try H.bed()
        bed.extra = "history:\n  keep: 10\n"
        try bed.start(environment: H.environment(bed))
        try HistoryTests().warm(bed)
        try bed.overrideRoster("us", try HistoryTests().changedRoster(bed))
        #expect(try bed.refresh("us").error == nil)
        #expect(try HistoryTests().changes(bed).int("latest") == 4)
        _ = try bed.daemon?.stop()
        // Padding after the real entries: 10 × 8 KiB plus slack is far below 400 KiB.
        let handle = try FileHandle(forWritingTo: Self.logURL(bed))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: " "), count: 400 << 10) + Data("\n".utf8))
        try handle.close()

        try bed.start(environment: H.environment(bed))
        let changes = try HistoryTests().changes(bed)
        #expect(changes.int("latest") == 4, "latest never goes backwards: \(changes)")
        #expect(try Self.setAside(bed).contains { $0.hasPrefix("us.log.bad-") })
        let health = try self.health(bed)
        let problems = health["problems"] as? [[String: Any]] ?? []
        #expect(problems.first?["kind"] as? String == "history", "\(health)")
        #expect((problems.first?["detail"] as? String)?.contains("history.keep") == true)
        try bed.overrideRoster("us", try HistoryTests().changedRoster(bed, tideLogVersion: "2.5.0"))
        #expect(try bed.refresh("us").error == nil)
        #expect(try HistoryTests().changes(bed).int("latest") == 4, "a new baseline, nothing recorded")
        try bed.overrideRoster("us", try HistoryTests().changedRoster(bed, tideLogVersion: "2.6.0"))
        #expect(try bed.refresh("us").error == nil)
        #expect(HistoryTests().serials(try HistoryTests().changes(bed)) == [5])
    }
}
