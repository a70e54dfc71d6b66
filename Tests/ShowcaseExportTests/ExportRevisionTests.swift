import Foundation
import ShowcaseCore
import ShowcaseExport
import Testing

/// `ExportRoster.Content.latest`: the revisions the daemon's documents carry are kept by the writer, in the
/// documents themselves.
@Suite("Export revisions")
struct ExportRevisionTests {
    let host = Samples.host
    static let first = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30T00:53:20Z
    static let later = Date(timeIntervalSince1970: 1_796_086_400)

    /// `Samples.roster`'s apps as the daemon hands them over, with `tagline` on Lanternlight.
    func latest(tagline: String = "A night light that knows the tide", mac: [ExportedApp]? = nil, now: Date)
        -> ExportRoster
    {
        ExportRoster(
            host: host, storefront: Samples.us, state: .fresh, fetchedAt: Samples.fetchedAt,
            content: .latest(
                apps: [
                    .ios: [
                        Samples.exported(Samples.lanternlight, tagline: .plain(tagline)),
                        Samples.exported(Samples.windrose),
                    ],
                    .macos: mac ?? [Samples.exported(Samples.chartTable)],
                ], now: now))
    }

    func header(_ directory: TemporaryDirectory, _ platform: String) throws -> (Int?, String?) {
        let document = try parsed(directory.read("v1/\(host)/us/\(platform).json"))
        return (document["revision"] as? Int, document["revisedAt"] as? String)
    }

    @Test("a new document starts at revision 1, revised at the time given")
    func startsAtOne() throws {
        let directory = try TemporaryDirectory()
        let report = ExportWriter(directory: directory.path).export([latest(now: Self.first)])
        #expect(report.errors.isEmpty)
        #expect(try header(directory, "ios") == (1, "2026-11-30T00:53:20Z"))
        let index = try parsed(directory.read("v1/index.json"))
        let revisions = (index["documents"] as? [[String: Any]])?.map { $0["revision"] as? Int }
        #expect(revisions == [1, 1])
    }

    @Test("unchanged apps keep the revision, revisedAt and bytes; changed apps take the next revision")
    func bumpsOnlyWhatChanged() throws {
        let directory = try TemporaryDirectory()
        _ = ExportWriter(directory: directory.path).export([latest(now: Self.first)])
        let mac = try directory.read("v1/\(host)/us/macos.json")
        for file in directory.files() { try directory.age(file) }

        // A later pass with the same apps: nothing is rewritten, and the revision keeps its first date.
        let same = ExportWriter(directory: directory.path).export([latest(now: Self.later)])
        #expect(same.written == 0)
        #expect(try header(directory, "ios") == (1, "2026-11-30T00:53:20Z"))

        // A new iOS tagline: the iOS document moves to revision 2; the Mac document is left alone.
        let changed = ExportWriter(directory: directory.path).export([latest(tagline: "New", now: Self.later)])
        #expect(changed.errors.isEmpty)
        #expect(try header(directory, "ios") == (2, "2026-12-01T00:53:20Z"))
        #expect(try directory.read("v1/\(host)/us/macos.json") == mac)
        #expect(try directory.modified("v1/\(host)/us/macos.json") == TemporaryDirectory.longAgo)
        let index = try parsed(directory.read("v1/index.json"))
        let byPath = Dictionary(
            uniqueKeysWithValues: (index["documents"] as? [[String: Any]] ?? []).map {
                ($0["path"] as? String ?? "", $0["revision"] as? Int)
            })
        #expect(byPath == ["\(host)/us/ios.json": 2, "\(host)/us/macos.json": 1])
    }

    @Test("a writer that starts afresh (a restarted daemon) continues from the revision on disk")
    func survivesRestart() throws {
        let directory = try TemporaryDirectory()
        _ = ExportWriter(directory: directory.path).export([latest(now: Self.first)])
        _ = ExportWriter(directory: directory.path).export([latest(tagline: "Two", now: Self.first)])
        _ = ExportWriter(directory: directory.path).export([latest(tagline: "Three", now: Self.later)])
        #expect(try header(directory, "ios").0 == 3)
        let again = ExportWriter(directory: directory.path).export([latest(tagline: "Three", now: Date())])
        #expect(again.written == 0)
        #expect(try header(directory, "ios") == (3, "2026-12-01T00:53:20Z"))
    }

    @Test("a kept document's revision in index.json is the one it holds")
    func keptRevision() throws {
        let directory = try TemporaryDirectory()
        _ = ExportWriter(directory: directory.path).export([latest(now: Self.first)])
        _ = ExportWriter(directory: directory.path).export([latest(tagline: "Two", now: Self.later)])
        let kept = ExportRoster(
            host: host, storefront: Samples.us, state: .failed, fetchedAt: nil, error: "MalformedResponse: HTML",
            content: .keepLastGood(revision: nil))
        _ = ExportWriter(directory: directory.path).export([kept])
        let index = try parsed(directory.read("v1/index.json"))
        let entries = try #require(index["documents"] as? [[String: Any]])
        #expect(entries.map { $0["path"] as? String } == ["\(host)/us/ios.json", "\(host)/us/macos.json"])
        #expect(entries.map { $0["revision"] as? Int } == [2, 1])
        #expect(entries.allSatisfy { $0["state"] as? String == "failed" })
    }

    @Test("a document damaged on disk is written again from revision 1")
    func damaged() throws {
        let directory = try TemporaryDirectory()
        _ = ExportWriter(directory: directory.path).export([latest(now: Self.first)])
        _ = ExportWriter(directory: directory.path).export([latest(tagline: "Two", now: Self.later)])
        try directory.write("v1/\(host)/us/ios.json", "{\"revision\": ")
        let report = ExportWriter(directory: directory.path).export([latest(tagline: "Two", now: Self.later)])
        #expect(report.errors.isEmpty)
        #expect(try header(directory, "ios") == (1, "2026-12-01T00:53:20Z"))
    }
}
