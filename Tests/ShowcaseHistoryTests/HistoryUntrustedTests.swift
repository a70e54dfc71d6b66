import Foundation
import ShowcaseCore
import ShowcaseHistory
import Testing

/// SPEC §20: a history log is read back as untrusted input.
@Suite("History files as untrusted input")
struct HistoryUntrustedTests {
    typealias S = Samples
    typealias Scratch = HistoryStoreTests.Scratch
    static let key = HistoryStoreTests.key

    /// One log line as the daemon writes them, with `fields` changed.
    static func line(_ serial: Int, _ fields: [String: Any] = [:]) throws -> String {
        var entry: [String: Any] = [
            "serial": serial, "at": 1_800_000_000_000, "kind": "updated", "id": 1, "name": "App 1", "platform": "ios",
            "storeUrl": "https://apps.apple.com/us/app/id1?uo=4",
            "iconUrl": "https://is1-ssl.mzstatic.com/image/1/x.jpg",
            "version": "1.\(serial)",
        ]
        entry.merge(fields) { $1 }
        let data = try JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A store whose history has a baseline (app 1 at 1.0), with `log` planted as its log.
    static func planted(_ log: String) throws -> (Scratch, HistoryStore) {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = store.record(S.roster([S.app(1)]), for: key, hostTrackId: nil, keep: 100)
        try Data(log.utf8).write(to: URL(fileURLWithPath: scratch.log))
        return (scratch, store)
    }

    static func setAside(_ scratch: Scratch) throws -> [String] {
        let folder = (scratch.log as NSString).deletingLastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".bad-") }.sorted()
    }

    @Test(
        "a serial out of 1…2^53 or out of order sets the log aside (renamed .bad-<time>) and the serials carry on past the good ones",
        arguments: [9_223_372_036_854_775_807, 9_007_199_254_740_993, 0, -5, 2])
    func badSerial(serial: Int) throws {
        let (scratch, store) = try Self.planted(try Self.line(1) + Self.line(2) + Self.line(serial) + Self.line(3))
        let reading = try store.read(Self.key, keep: 100).get()
        #expect(reading.latest == 2, "the good serials before the bad line")
        #expect(reading.entries.isEmpty, "the log is set aside whole")
        #expect(try Self.setAside(scratch).map { $0.prefix(11) } == ["us.baseline", "us.log.bad-"])
        // The next roster starts a new baseline (nothing recorded), the one after records from 3 on.
        let next = store.record(S.roster([S.app(1, version: "5.0")], at: 1), for: Self.key, hostTrackId: nil, keep: 100)
        #expect(next.entries.isEmpty && next.error == nil)
        let after = store.record(
            S.roster([S.app(1, version: "6.0")], at: 2), for: Self.key, hostTrackId: nil, keep: 100)
        #expect(after.entries.map(\.serial) == [3])
    }

    @Test("a record over a planted serial of Int.max never traps: it sets the log aside and starts a new baseline")
    func recordOverMaximum() throws {
        let (scratch, store) = try Self.planted(try Self.line(1) + Self.line(Int.max))
        let result = store.record(S.roster([S.app(1, version: "9.0")], at: 1), for: Self.key, hostTrackId: nil, keep: 9)
        #expect(result.error == nil && result.entries.isEmpty)
        #expect(try Self.setAside(scratch).count == 2)
        #expect(try store.read(Self.key, keep: 9).get().latest == 1)
    }

    @Test("a planted baseline near 2^53 never overflows: its history starts again from 1")
    func baselineNearTheEnd() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = store.record(S.roster([S.app(1)]), for: Self.key, hostTrackId: nil, keep: 100)
        var baseline = try String(contentsOfFile: scratch.baseline, encoding: .utf8)
        baseline = baseline.replacingOccurrences(of: "\"lastSerial\":0", with: "\"lastSerial\":9007199254740992")
        try baseline.write(toFile: scratch.baseline, atomically: true, encoding: .utf8)
        let first = store.record(S.roster([S.app(1, version: "2.0")], at: 1), for: Self.key, hostTrackId: nil, keep: 9)
        #expect(first.error == nil && first.entries.isEmpty, "a new baseline")
        let second = store.record(S.roster([S.app(1, version: "3.0")], at: 2), for: Self.key, hostTrackId: nil, keep: 9)
        #expect(second.entries.map(\.serial) == [1])
    }

    @Test("a planted baseline whose time RFC 3339 cannot write is no baseline: the next roster becomes one")
    func baselineTime() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = store.record(S.roster([S.app(1)]), for: Self.key, hostTrackId: nil, keep: 100)
        var baseline = try String(contentsOfFile: scratch.baseline, encoding: .utf8)
        baseline = baseline.replacingOccurrences(of: "\"at\":1800000000000", with: "\"at\":1e300")
        try baseline.write(toFile: scratch.baseline, atomically: true, encoding: .utf8)
        #expect(try store.read(Self.key, keep: 100).get().baselineAt == nil)
        let next = store.record(S.roster([S.app(1, version: "2.0")], at: 1), for: Self.key, hostTrackId: nil, keep: 9)
        #expect(next.baseline == .started && next.entries.isEmpty)
    }

    @Test(
        "a planted baseline release is checked on read: notes cut to 4 KiB, a date not RFC 3339 or over a day ahead dropped"
    )
    func plantedRelease() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = store.record(S.roster([S.app(1), S.app(2), S.app(3)]), for: Self.key, hostTrackId: nil, keep: 100)
        let data = try Data(contentsOf: URL(fileURLWithPath: scratch.baseline))
        var baseline = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        baseline["releases"] = [
            "1": [
                "version": "1.0", "versionDate": "9999-12-31T00:00:00Z",
                "releaseNotes": String(repeating: "é", count: 5000),
            ],
            "2": ["version": "1.0", "versionDate": "2026-02-30T00:00:00Z"],
            "3": ["version": "1.0", "versionDate": "2026-02-03T00:00:00Z", "releaseNotes": "Fine"],
        ]
        try JSONSerialization.data(withJSONObject: baseline).write(to: URL(fileURLWithPath: scratch.baseline))
        let releases = try store.read(Self.key, keep: 100).get().releases
        #expect(releases[1]?.versionDate == nil)
        #expect((releases[1]?.releaseNotes?.utf8.count ?? .max) <= ReleaseNotes.maximumBytes)
        #expect(releases[1]?.releaseNotes?.hasSuffix("…") == true)
        #expect(releases[2]?.versionDate == nil)
        #expect(releases[3] == .init(version: "1.0", versionDate: "2026-02-03T00:00:00Z", releaseNotes: "Fine"))
    }

    @Test("entries whose store or icon URL fails §5 (javascript:, data:, a foreign host) are never read back")
    func hostileURLs() throws {
        let (_, store) = try Self.planted(
            try Self.line(1, ["storeUrl": "javascript:alert(document.domain)//"])
                + Self.line(2, ["iconUrl": "data:image/png;base64,AAAA"])
                + Self.line(3, ["iconUrl": "https://evil.example/x.png"])
                + Self.line(4, ["storeUrl": "https://apps.apple.com.evil.example/us/app/id1"]) + Self.line(5))
        let reading = try store.read(Self.key, keep: 100).get()
        #expect(reading.entries.map(\.serial) == [5])
        #expect(reading.latest == 5)
    }

    @Test("a line over 8 KiB is skipped unread; a time RFC 3339 cannot write is no entry")
    func oversizedLineAndTimes() throws {
        let (_, store) = try Self.planted(
            try Self.line(1, ["releaseNotes": String(repeating: "x", count: 20_000)]) + Self.line(2, ["at": 1e300])
                + Self.line(3, ["at": -1e17]) + Self.line(4))
        let reading = try store.read(Self.key, keep: 100).get()
        #expect(reading.entries.map(\.serial) == [4])
    }

    @Test("what is recorded fits 8 KiB a line, however long upstream's texts; a date years ahead is dropped")
    func recordedCap() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        let huge = String(repeating: "Ü\u{1}", count: 300_000)
        _ = store.record(S.roster([S.app(1)]), for: Self.key, hostTrackId: nil, keep: 100)
        let roster = S.roster(
            [
                S.app(1, version: huge, name: huge, notes: huge, date: "9999-12-31T23:59:59Z"),
                S.app(2, formattedPrice: huge, name: huge),
            ], at: 1)
        let result = store.record(roster, for: Self.key, hostTrackId: nil, keep: 100)
        #expect(result.entries.count == 2)
        let lines = try scratch.bytes(scratch.log).split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.count < 8192 }, "\(lines.map(\.count))")
        let reading = try store.read(Self.key, keep: 100).get()
        #expect(reading.entries.map(\.serial) == [1, 2], "read back whole")
        #expect(reading.entries.first?.versionDate == nil)

        // One long text is cut to fit, marked, the rest kept.
        let long = S.roster(
            [S.app(1, version: "7.0", name: String(repeating: "n", count: 20_000), notes: "Faster")], at: 2)
        let cut = try #require(store.record(long, for: Self.key, hostTrackId: nil, keep: 100).entries.first)
        #expect(cut.name.hasSuffix("…") && cut.name.utf8.count > 7000 && cut.releaseNotes == "Faster")
        #expect(cut.line.count <= 8192)
    }

    @Test("a log larger than keep × 8 KiB plus slack is set aside unread; latest holds from the baseline")
    func oversizedLog() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = store.record(S.roster([S.app(1)]), for: Self.key, hostTrackId: nil, keep: 5)
        for (index, version) in ["1.1", "1.2", "1.3"].enumerated() {
            _ = store.record(
                S.roster([S.app(1, version: version)], at: index + 1), for: Self.key, hostTrackId: nil, keep: 5)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x20, count: 200 << 10))
        try handle.close()
        let reading = try store.read(Self.key, keep: 5).get()
        #expect(reading.latest == 3)
        #expect(reading.entries.isEmpty)
        #expect(try Self.setAside(scratch).count == 2)
        let next = store.record(S.roster([S.app(1, version: "2.0")], at: 9), for: Self.key, hostTrackId: nil, keep: 5)
        #expect(next.entries.isEmpty, "a new baseline")
        let after = store.record(S.roster([S.app(1, version: "2.1")], at: 10), for: Self.key, hostTrackId: nil, keep: 5)
        #expect(after.entries.map(\.serial) == [4])
    }
}
