import Foundation
import ShowcaseConfig
import ShowcaseCore
import ShowcaseHistory
import Testing

@testable import ShowcaseDaemon

/// The change histories as a part of the daemon's state (``HistoryBook``): what a record and a read hand the
/// state, as plain transitions, and the recorder asking for an export through the owner instead of a callback.
@Suite("Daemon state: the change histories' readings, set-aside logs and the export a record asks for")
struct HistoryStateTests {
    let key = HistoryKey(host: TestBed.tideLog, edition: StorefrontEdition(TestBed.storefront("us")))
    let at = Date(timeIntervalSince1970: 1_800_000_000)

    /// A state running one host in `us`, exporting when `exporting`.
    func state(exporting: Bool = true) -> DaemonState {
        var configuration = InProcessFixtures.configuration(storefronts: ["us"])
        if exporting { configuration.export = ExportSettings(directory: "/in-process/export") }
        return DaemonState(config: DaemonStateTests.snapshot(configuration))
    }

    /// A reading whose newest serial is `latest`, holding entries `serials`.
    func reading(latest: Int, serials: [Int] = [], setAside: HistorySetAside? = nil) -> HistoryReading {
        var reading = HistoryReading(
            entries: serials.map { serial in
                HistoryEntry(
                    serial: serial, at: at, kind: .updated, id: InProcessFixtures.tideLogId, name: "TideLog",
                    platform: .ios, storeUrl: "https://apps.apple.com/us/app/id1641000101",
                    iconUrl: "https://is1-ssl.mzstatic.com/image/thumb/1/512x512bb.jpg", version: "2.\(serial)")
            }, latest: latest, baselineAt: at)
        reading.setAside = setAside
        return reading
    }

    func aside(at offset: TimeInterval = 0) -> HistorySetAside {
        HistorySetAside(
            key: key, file: "/in-process/state/history/\(key.host)/us.log.bad-\(Int(offset))",
            reason: "serial out of order",
            at: at.addingTimeInterval(offset))
    }

    static let otherRules = URLRules(artworkHosts: [try! URLPrefix(parsing: "https://icons.example.com/")])

    @Test("a record that grew a history asks for an export (when one is configured); one that did not asks for none")
    func growthAsksForAnExport() {
        var state = state()
        let quiet = HistoryBook.Record(key: key, reading: reading(latest: 0), grew: false)
        #expect(state.historyRecorded([quiet], urlRules: .standard).export == nil)
        #expect(state.history.reading(key, keep: 100, rules: .standard)?.latest == 0, "kept all the same")

        let grown = HistoryBook.Record(key: key, reading: reading(latest: 2, serials: [1, 2]), grew: true)
        let other = HistoryBook.Record(
            key: HistoryKey(host: TestBed.knotbook, edition: key.edition), reading: nil, grew: false)
        #expect(state.historyRecorded([other, grown], urlRules: .standard).export == .rosters)
        #expect(state.history.reading(key, keep: 100, rules: .standard)?.latest == 2)

        var silent = self.state(exporting: false)
        #expect(silent.historyRecorded([grown], urlRules: .standard).export == nil, "nothing to export to")
    }

    @Test("a set-aside replaces the reading: the one read after it is answered, and Status lists the log, oldest first")
    func setAsideReplacesTheReading() {
        var state = state()
        _ = state.historyRecorded(
            [HistoryBook.Record(key: key, reading: reading(latest: 7, serials: [6, 7]), grew: true)],
            urlRules: .standard)
        // A record that found the log bad: set aside, then read back as the placeholder that keeps the serials.
        _ = state.historyRecorded(
            [HistoryBook.Record(key: key, setAside: aside(at: 60), reading: reading(latest: 7), grew: true)],
            urlRules: .standard)
        #expect(state.history.reading(key, keep: 100, rules: .standard)?.entries.isEmpty == true)
        // A read that finds it bad again (planted anew) replaces the kept reading too, though one is kept.
        let (answered, change) = state.historyRead(
            key, reading(latest: 9, setAside: aside(at: 30)), keep: 100, urlRules: .standard)
        #expect(answered?.latest == 9 && change.export == nil)
        #expect(state.history.reading(key, keep: 100, rules: .standard)?.latest == 9)
        #expect(state.history.problems == [aside(at: 30)], "the latest per history")
    }

    @Test("a reading under other URL rules is not reused: a read under the new rules fills it again")
    func otherRulesFillAgain() {
        var state = state()
        _ = state.historyRecorded(
            [HistoryBook.Record(key: key, reading: reading(latest: 3, serials: [3]), grew: true)], urlRules: .standard)
        #expect(state.history.reading(key, keep: 100, rules: Self.otherRules) == nil)
        let (answered, _) = state.historyRead(
            key, reading(latest: 3), keep: 100, urlRules: Self.otherRules)
        #expect(answered?.entries.isEmpty == true, "what the new rules let through")
        #expect(state.history.reading(key, keep: 100, rules: Self.otherRules)?.entries.isEmpty == true)
        #expect(state.history.reading(key, keep: 100, rules: .standard) == nil, "one reading per history")
    }

    @Test("a read that started before a record never replaces the newer reading the record kept meanwhile")
    func staleReadLosesToRecord() {
        var state = state()
        #expect(state.historyRead(key, nil, keep: 100, urlRules: .standard).0 == nil, "unreadable, nothing kept")
        // The read loaded serial 6 from disk; before it handed that over, a record appended 7 and kept it.
        _ = state.historyRecorded(
            [HistoryBook.Record(key: key, reading: reading(latest: 7, serials: [6, 7]), grew: true)],
            urlRules: .standard)
        let (answered, _) = state.historyRead(key, reading(latest: 6, serials: [6]), keep: 100, urlRules: .standard)
        #expect(answered?.latest == 7)
        #expect(state.history.reading(key, keep: 100, rules: .standard)?.latest == 7)
        #expect(state.historyRead(key, nil, keep: 100, urlRules: .standard).0?.latest == 7, "a failed read too")
    }

    @Test("a reload that lowered history.keep shows the newest entries of the kept reading at once")
    func lowerKeepTrims() {
        var state = state()
        _ = state.historyRecorded(
            [HistoryBook.Record(key: key, reading: reading(latest: 3, serials: [1, 2, 3]), grew: true)],
            urlRules: .standard)
        #expect(state.history.reading(key, keep: 2, rules: .standard)?.entries.map(\.serial) == [2, 3])
        #expect(state.history.reading(key, keep: 100, rules: .standard)?.entries.map(\.serial) == [1, 2, 3])
    }

    @Test(
        "the recorder's first roster starts a baseline and asks the owner for an export; the same roster again asks for none"
    )
    func recorderAsksTheOwner() throws {
        var configuration = InProcessFixtures.configuration(storefronts: ["us"])
        configuration.export = ExportSettings(directory: "/in-process/export")
        let owner = StateOwnerTests.owner(configuration)
        let recorder = HistoryRecorder(
            directory: configuration.historyDirectory, state: owner, log: DaemonLog(environment: [:]))
        defer { try? FileManager.default.removeItem(atPath: configuration.historyDirectory) }
        let roster = InProcessFixtures.roster("us", fetchedAt: at)
        let hosts: [(bundleID: String, trackId: Int?)] = [(TestBed.tideLog, InProcessFixtures.tideLogId)]

        recorder.record(roster, edition: key.edition, hosts: hosts, keep: 100, urlRules: .standard)
        #expect(owner.read { $0.exportSchedule.isPending })
        #expect(owner.read { $0.history.reading(key, keep: 100, rules: .standard)?.baselineAt } != nil)
        _ = owner.update { state, _ in state.exportStarted(at: owner.clock.instant) }
        owner.update { state, _ in state.exportEnded(nil, at: owner.clock.instant) }

        recorder.record(roster, edition: key.edition, hosts: hosts, keep: 100, urlRules: .standard)
        #expect(!owner.read { $0.exportSchedule.isPending }, "nothing grew")
        #expect(recorder.reading(key, keep: 100, urlRules: .standard).latest == 0)
    }
}
