import DirectorySafety
import Foundation
import ShowcaseCore
import ShowcaseHistory
import Testing

@Suite("History store")
struct HistoryStoreTests {
    typealias S = Samples
    static let key = HistoryKey(host: "com.example.Host", edition: StorefrontEdition(try! Storefront(parsing: "us")))

    /// A fresh state directory.
    struct Scratch {
        let root: String
        init() throws {
            root = NSTemporaryDirectory() + "history-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        var log: String { root + "/history/com.example.Host/us.log" }
        var baseline: String { root + "/history/com.example.Host/us.baseline" }
        func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
    }

    /// Records `versions` in turn (one roster of app 1 per version), returning the serials each recorded.
    func record(_ store: HistoryStore, versions: [String], keep: Int = 100, from minute: Int = 0) -> [[Int]] {
        versions.enumerated().map { index, version in
            let roster = S.roster([S.app(1, version: version)], at: minute + index)
            let result = store.record(roster, for: Self.key, hostTrackId: nil, keep: keep)
            #expect(result.error == nil)
            return result.entries.map(\.serial)
        }
    }

    @Test("appends one line per entry, reads them back, and a reopened store carries on with the next serial")
    func appendAndRestart() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        let first = store.record(S.roster([S.app(1)]), for: Self.key, hostTrackId: nil, keep: 100)
        #expect(first.baseline == .started && first.entries.isEmpty)
        #expect(record(store, versions: ["1.1", "1.2"], from: 1) == [[1], [2]])
        let lines = try scratch.bytes(scratch.log).split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 2)
        let reopened = HistoryStore(directory: scratch.root)
        let reading = try reopened.read(Self.key, keep: 100).get()
        #expect(reading.entries.map(\.serial) == [1, 2])
        #expect(reading.entries.map(\.version) == ["1.1", "1.2"])
        #expect(reading.latest == 2)
        #expect(record(reopened, versions: ["1.2"], from: 5) == [[]], "identical after a restart: nothing")
        #expect(record(reopened, versions: ["1.3"], from: 6) == [[3]])
    }

    @Test("a history never written reads empty, with latest 0")
    func empty() throws {
        let reading = try HistoryStore(directory: try Scratch().root + "/absent").read(Self.key, keep: 10).get()
        #expect(reading.entries.isEmpty && reading.latest == 0 && reading.baselineAt == nil)
    }

    @Test("bounded by keep: the oldest go in an atomic rewrite, and serials carry on past the ones dropped")
    func bound() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = record(store, versions: ["0"])
        let serials = record(store, versions: (1...30).map(String.init), keep: 10, from: 1).flatMap { $0 }
        #expect(serials == Array(1...30))
        let lines = try scratch.bytes(scratch.log).split(separator: UInt8(ascii: "\n")).count
        #expect(lines <= 10 + 4, "the file stays within keep plus its slack")
        let reading = try store.read(Self.key, keep: 10).get()
        #expect(reading.entries.map(\.serial) == Array(21...30))
        #expect(reading.latest == 30)
        #expect(record(store, versions: ["31"], keep: 10, from: 40) == [[31]])
    }

    @Test("a cut last line (kill -9 mid-append) is ignored on read and cut off before the next append")
    func truncatedTail() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = record(store, versions: ["1.0", "1.1", "1.2"])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"serial":3,"at":1800000000000,"kind":"upd"#.utf8))
        try handle.close()
        let reading = try store.read(Self.key, keep: 100).get()
        #expect(reading.entries.map(\.serial) == [1, 2])
        #expect(record(store, versions: ["1.3"], from: 10) == [[3]])
        let text = String(decoding: try scratch.bytes(scratch.log), as: UTF8.self)
        #expect(!text.contains(#""kind":"upd""#), "the cut line was removed")
        #expect(text.split(separator: "\n").count == 3)
        #expect(try store.read(Self.key, keep: 100).get().entries.map(\.version) == ["1.1", "1.2", "1.3"])
    }

    @Test("entries appended but not yet in the baseline (a crash between) are not recorded twice")
    func crashBeforeBaseline() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = record(store, versions: ["1.0"])
        let before = try scratch.bytes(scratch.baseline)
        #expect(record(store, versions: ["2.0"], from: 1) == [[1]])
        // The crash: the baseline written after the append never reached the disk.
        try before.write(to: URL(fileURLWithPath: scratch.baseline))
        #expect(record(store, versions: ["2.0"], from: 2) == [[]])
        #expect(record(store, versions: ["3.0"], from: 3) == [[2]])
    }

    @Test("a wiped log keeps the serials going from the baseline; a wiped baseline makes the next roster one")
    func wiped() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = record(store, versions: ["1.0", "1.1", "1.2"])
        try FileManager.default.removeItem(atPath: scratch.log)
        #expect(record(store, versions: ["1.3"], from: 5) == [[3]])
        try FileManager.default.removeItem(atPath: scratch.baseline)
        #expect(record(store, versions: ["9.9"], from: 6) == [[]], "no baseline: nothing invented")
        #expect(record(store, versions: ["10"], from: 7) == [[4]])
    }

    @Test("a symlink or FIFO planted where a log belongs is reported and never followed or opened for writing")
    func hostileFiles() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        _ = record(store, versions: ["1.0"])
        let outside = scratch.root + "/outside"
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: outside))
        try #require(symlink(outside, scratch.log) == 0)
        let linked = store.record(S.roster([S.app(1, version: "2")], at: 1), for: Self.key, hostTrackId: nil, keep: 9)
        #expect(linked.error?.code == .unexpected(.symbolicLink))
        #expect(linked.entries.isEmpty)
        #expect(store.read(Self.key, keep: 9).failure?.code == .unexpected(.symbolicLink))
        #expect(try scratch.bytes(outside) == Data("keep me\n".utf8))
        try FileManager.default.removeItem(atPath: scratch.log)
        try #require(mkfifo(scratch.log, 0o600) == 0)
        let started = ContinuousClock.now
        let fifo = store.record(S.roster([S.app(1, version: "2")], at: 2), for: Self.key, hostTrackId: nil, keep: 9)
        #expect(fifo.error?.code == .unexpected(.fifo))
        #expect(store.read(Self.key, keep: 9).failure?.code == .unexpected(.fifo))
        #expect(ContinuousClock.now - started < .seconds(20), "waited on the FIFO")
        try FileManager.default.removeItem(atPath: scratch.log)
        try #require(link(outside, scratch.log) == 0)
        let hard = store.record(S.roster([S.app(1, version: "2")], at: 3), for: Self.key, hostTrackId: nil, keep: 9)
        #expect(hard.error?.isUnexpectedEntry == true)
        #expect(try scratch.bytes(outside) == Data("keep me\n".utf8))
    }

    @Test("a symlinked host folder is refused: nothing is written through it")
    func hostileFolder() throws {
        let scratch = try Scratch()
        let elsewhere = scratch.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: scratch.root + "/history", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try #require(symlink(elsewhere, scratch.root + "/history/com.example.Host") == 0)
        let result = HistoryStore(directory: scratch.root).record(
            S.roster([S.app(1)]), for: Self.key, hostTrackId: nil, keep: 9)
        #expect(result.error?.code == .unexpected(.symbolicLink))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test("languages are separate histories with their own serials")
    func languages() throws {
        let scratch = try Scratch()
        let store = HistoryStore(directory: scratch.root)
        let ca = try Storefront(parsing: "ca")
        let fr = HistoryKey(
            host: "com.example.Host", edition: StorefrontEdition(ca, language: RosterLanguage(parsing: "fr")))
        let en = HistoryKey(
            host: "com.example.Host", edition: StorefrontEdition(ca, language: RosterLanguage(parsing: "en")))
        for key in [fr, en] { _ = store.record(S.roster([S.app(1)]), for: key, hostTrackId: nil, keep: 9) }
        _ = store.record(S.roster([S.app(1, version: "2")], at: 1), for: fr, hostTrackId: nil, keep: 9)
        #expect(try store.read(fr, keep: 9).get().latest == 1)
        #expect(try store.read(en, keep: 9).get().latest == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.root + "/history/com.example.Host/ca-fr.log"))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
