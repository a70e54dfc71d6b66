import Foundation
import ShowcaseCore
import ShowcaseExport
import Testing

@testable import ShowcaseDaemon

/// The one-shot run's command line and report as values: which flags combine, and which exit status a set of
/// roster states gives (SPEC §17), without a process.
@Suite("One-shot options and report")
struct OneShotReportTests {
    static let us = StorefrontEdition(TestBed.storefront("us"))
    static let de = StorefrontEdition(TestBed.storefront("de"))

    func report(_ states: [ServedState], export: ExportReport? = nil) -> OneShotReport {
        let rosters = states.enumerated().map { index, state in
            OneShotReport.Roster(
                host: TestBed.knotbook, edition: index == 0 ? Self.us : Self.de, state: state, rows: 17, apps: 3,
                platform: .ios,
                fetchedAt: state == .fresh || state == .stale ? Date(timeIntervalSince1970: 1_800_000_000) : nil,
                error: state == .fresh ? nil : "the lookup service answered HTTP 500")
        }
        return OneShotReport(rosters: rosters, requests: 2, export: export, stoppedWaiting: false)
    }

    @Test("0 only when every roster is fresh; a diagnostic is 1 and wins over a stale or unavailable roster (75)")
    func exitStatus() {
        #expect(report([.fresh, .fresh]).exitStatus == 0)
        #expect(report([.fresh, .stale]).exitStatus == 75)
        #expect(report([.unavailable, .fresh]).exitStatus == 75)
        #expect(report([.warming, .fresh]).exitStatus == 75)
        #expect(report([.failed, .fresh]).exitStatus == 1)
        #expect(report([.unavailable, .failed]).exitStatus == 1)
        let failedExport = ExportReport(
            directory: "/srv/export", errors: [ExportError(.writeFailed, path: "/srv/export/v1", "disk full")])
        #expect(report([.fresh, .stale], export: failedExport).exitStatus == 73)
        #expect(report([.failed, .fresh], export: failedExport).exitStatus == 1)
    }

    @Test("a line per roster names its host, storefront, state, rows upstream sent and apps on its platform")
    func lines() {
        var report = report([.fresh, .unavailable])
        report.rosters[1].error = "bad\u{1b}[2Jbody"
        #expect(report.lines.count == 2)
        #expect(
            report.lines[0] == "\(TestBed.knotbook) us: fresh, 17 rows, 3 apps on iOS, fetched 2027-01-15T08:00:00Z")
        #expect(report.lines[1] == "\(TestBed.knotbook) de: unavailable, bad\\x1b[2Jbody")
        report.rosters[0].rows = 1
        report.rosters[0].apps = 1
        report.rosters[0].platform = .macos
        #expect(report.lines[0].hasPrefix("\(TestBed.knotbook) us: fresh, 1 row, 1 app on macOS, fetched"))
    }

    @Test("the icons line counts referenced and mirrored, and refused and failed only when there are any")
    func iconLine() {
        var report = report([.fresh])
        #expect(report.lines.count == 1, "no icons line without export.icons")
        report.icons = IconTally(referenced: 32, mirrored: 32)
        #expect(report.lines.last == "icons: 32 of 32 mirrored")
        report.icons = IconTally(referenced: 32, mirrored: 29, refused: 1, failed: 2)
        #expect(report.lines.last == "icons: 29 of 32 mirrored, 1 refused, 2 failed")
        report.icons = IconTally(referenced: 4, mirrored: 3, failed: 1)
        #expect(report.lines.last == "icons: 3 of 4 mirrored, 1 failed")
    }

    @Test("an icon refused or not fetched never changes the exit status")
    func iconsLeaveExitStatus() {
        for states in [[ServedState.fresh], [.stale], [.failed]] {
            var report = report(states)
            let status = report.exitStatus
            report.icons = IconTally(referenced: 8, mirrored: 0, refused: 5, failed: 3)
            #expect(report.exitStatus == status)
        }
    }

    @Test("--json writes the bytes JSONSerialization wrote (sorted keys, slashes unescaped, absent facts left out)")
    func jsonBytes() throws {
        var report = report([.fresh, .unavailable, .warming])
        report.rosters[1].edition = StorefrontEdition(TestBed.storefront("ch"), language: RosterLanguage(parsing: "fr"))
        report.rosters[1].error = "HTTP 500 from https://itunes.apple.com/lookup \"ü\"\n\u{1}"
        report.stoppedWaiting = true
        report.icons = IconTally(referenced: 6, mirrored: 4, refused: 1, failed: 1)
        report.export = ExportReport(
            directory: "/srv/export", written: 4, unchanged: 2, removed: 1,
            errors: [ExportError(.writeFailed, path: "/srv/export/v1", "disk full")])
        var document: [String: Any] = [
            "rosters": report.rosters.map { roster -> [String: Any] in
                var object: [String: Any] = [
                    "host": roster.host, "storefront": roster.edition.storefront.code,
                    "state": roster.state.rawValue, "rows": roster.rows, "apps": roster.apps,
                    "platform": roster.platform.rawValue,
                ]
                if let language = roster.edition.language { object["language"] = language.code }
                if let fetchedAt = roster.fetchedAt { object["fetchedAt"] = RFC3339.seconds(fetchedAt) }
                if roster.state != .fresh, let error = roster.error { object["error"] = error }
                return object
            },
            "requests": report.requests, "stoppedWaiting": report.stoppedWaiting, "exitStatus": Int(report.exitStatus),
        ]
        let export = try #require(report.export)
        document["export"] = [
            "directory": export.directory, "written": export.written, "unchanged": export.unchanged,
            "removed": export.removed, "errors": export.errors.map(\.message),
        ]
        document["icons"] = ["referenced": 6, "mirrored": 4, "refused": 1, "failed": 1]
        let expected = try JSONSerialization.data(
            withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(String(decoding: report.json, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        let plain = self.report([.fresh])
        let plainExpected = try JSONSerialization.data(
            withJSONObject: [
                "rosters": [
                    [
                        "host": TestBed.knotbook, "storefront": "us", "state": "fresh", "rows": 17, "apps": 3,
                        "platform": "ios", "fetchedAt": "2027-01-15T08:00:00Z",
                    ]
                ],
                "requests": 2, "stoppedWaiting": false, "exitStatus": 0,
            ] as [String: Any], options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(String(decoding: plain.json, as: UTF8.self) == String(decoding: plainExpected, as: UTF8.self))
    }

    @Test("--once combines with --config, --cache-dir, --max-wait and --json; not with --socket")
    func parsing() throws {
        let once = try DaemonOptions.parse(["--once", "--cache-dir", "c", "--max-wait", "90s", "--json"])
        #expect(once.once && once.json && once.cacheDirectory == "c" && once.maxWait == .seconds(90))
        #expect(try DaemonOptions.parse(["--once"]).maxWait == .seconds(600))
        #expect(throws: DaemonUsageError.self) { try DaemonOptions.parse(["--once", "--socket", "s"]) }
        #expect(throws: DaemonUsageError.self) { try DaemonOptions.parse(["--json"]) }
        #expect(throws: DaemonUsageError.self) { try DaemonOptions.parse(["--max-wait", "1m"]) }
        #expect(throws: DaemonUsageError.self) { try DaemonOptions.parse(["--once", "--max-wait", "soon"]) }
        #expect(throws: DaemonUsageError.self) { try DaemonOptions.parse(["--once", "--max-wait", "0s"]) }
    }
}
