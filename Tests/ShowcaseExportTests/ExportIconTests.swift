import Foundation
import ShowcaseCore
import ShowcaseExport
import Testing

/// Mirrored icons in the tree (SPEC §16): written by the export's rules, stored once by content, listed only while
/// a document references them, and never at the cost of a foreign file.
@Suite("Export of mirrored icons: content-addressed, referenced, removed with the last reference")
struct ExportIconTests {
    static let pngA = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
    static let pngB = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 4, 5, 6])
    static var pathA: String { IconName.path(of: pngA, format: .png) }
    static var pathB: String { IconName.path(of: pngB, format: .png) }

    /// `Samples.roster` with Lanternlight's icons at 128 (and Windrose's, when given) set to `lantern`.
    static func roster(
        storefront: Storefront = Samples.us, lantern: [Int: String], windrose: [Int: String] = [:]
    ) -> ExportRoster {
        var roster = Samples.roster(storefront: storefront)
        guard case .current(let revision, let revisedAt, var apps) = roster.content else { return roster }
        apps[.ios]![0].icons = lantern
        apps[.ios]![1].icons = windrose
        roster.content = .current(revision: revision, revisedAt: revisedAt, apps: apps)
        return roster
    }

    static func manifest(_ directory: TemporaryDirectory) throws -> [String] {
        String(decoding: try directory.read("v1/.showcase-manifest"), as: UTF8.self).split(separator: "\n")
            .map(String.init).filter { !$0.hasPrefix("#") }
    }

    /// One pass of `writer` without an earlier memory.
    static func export(_ writer: ExportWriter, _ rosters: [ExportRoster], icons: [String: Data]) -> ExportReport {
        var memory = ExportMemory()
        return writer.export(rosters, icons: icons, remembering: &memory)
    }

    @Test("an icon is written before the documents, listed in the manifest, and the document names it by size")
    func writesAndReferences() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, gzip: false)
        var memory = ExportMemory()
        let report = writer.export(
            [Self.roster(lantern: [128: Self.pathA, 256: Self.pathB])],
            icons: [Self.pathA: Self.pngA, Self.pathB: Self.pngB], remembering: &memory)
        #expect(report.succeeded, "\(report.errors)")
        #expect(report.missingIcons.isEmpty)
        #expect(try directory.read("v1/" + Self.pathA) == Self.pngA)
        #expect(try Self.manifest(directory).contains(Self.pathA))
        let bytes = try directory.read("v1/\(Samples.host)/us/ios.json")
        let json = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        let apps = try #require(json["apps"] as? [[String: Any]])
        #expect(apps[0]["icons"] as? [String: String] == ["128": Self.pathA, "256": Self.pathB])
        #expect(apps[1]["icons"] == nil)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(try #require(text.range(of: "\"128\"")).lowerBound < #require(text.range(of: "\"256\"")).lowerBound)
        let mac = String(decoding: try directory.read("v1/\(Samples.host)/us/macos.json"), as: UTF8.self)
        #expect(!mac.contains("\"icons\""), "an app without icons gained an icons member")
    }

    @Test("identical bytes from several apps and storefronts are one file")
    func identicalBytesOnce() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, gzip: false)
        let report = Self.export(
            writer,
            [
                Self.roster(lantern: [128: Self.pathA], windrose: [128: Self.pathA]),
                Self.roster(storefront: Samples.de, lantern: [128: Self.pathA]),
            ], icons: [Self.pathA: Self.pngA])
        #expect(report.succeeded, "\(report.errors)")
        #expect(try directory.files().filter { $0.hasPrefix("v1/icons/") } == ["v1/" + Self.pathA])
    }

    @Test("an icon not in the tree and not given is left out of the document and reported missing")
    func missingLeftOut() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, gzip: false)
        let report = Self.export(writer, [Self.roster(lantern: [128: Self.pathA])], icons: [:])
        #expect(report.missingIcons == [Self.pathA])
        let document = String(decoding: try directory.read("v1/\(Samples.host)/us/ios.json"), as: UTF8.self)
        #expect(!document.contains(Self.pathA))
    }

    @Test("icons no document references are removed in the pass that drops the last reference")
    func removesUnreferenced() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, gzip: false)
        var memory = ExportMemory()
        _ = writer.export(
            [Self.roster(lantern: [128: Self.pathA]), Self.roster(storefront: Samples.de, lantern: [128: Self.pathB])],
            icons: [Self.pathA: Self.pngA, Self.pathB: Self.pngB], remembering: &memory)
        // us still references A (without the bytes: it is in the tree); de no longer references B.
        let report = writer.export(
            [Self.roster(lantern: [128: Self.pathA]), Self.roster(storefront: Samples.de, lantern: [:])], icons: [:],
            remembering: &memory)
        #expect(report.succeeded, "\(report.errors)")
        #expect(report.missingIcons.isEmpty)
        #expect(directory.exists("v1/" + Self.pathA))
        #expect(!directory.exists("v1/" + Self.pathB))
        #expect(try !Self.manifest(directory).contains(Self.pathB))
    }

    @Test("a document kept for a roster in a diagnostic keeps its icons")
    func keptDocumentKeepsIcons() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, gzip: false)
        var memory = ExportMemory()
        _ = writer.export(
            [Self.roster(lantern: [128: Self.pathA])], icons: [Self.pathA: Self.pngA], remembering: &memory)
        var failing = Samples.roster()
        failing.content = .keepLastGood(revision: 1)
        failing.error = "HTTP 503"
        let report = writer.export([failing], icons: [:], remembering: &memory)
        #expect(report.succeeded, "\(report.errors)")
        #expect(directory.exists("v1/" + Self.pathA))
    }

    @Test("an icon that could not be written is left out of the documents, and the rosters' errors are reported once")
    func failedIconWrite() throws {
        let directory = try TemporaryDirectory()
        // A file where the icons' folder belongs: staging the icon fails.
        try directory.write("v1/icons", "not a folder")
        let writer = ExportWriter(directory: directory.path, gzip: false)
        let unsafe = Samples.roster(host: "no such host")
        let report = Self.export(
            writer, [Self.roster(lantern: [128: Self.pathA]), unsafe], icons: [Self.pathA: Self.pngA])
        #expect(report.errors.map(\.code) == [.invalidDocument, .unexpectedEntry], "\(report.errors)")
        #expect(report.missingIcons == [Self.pathA])
        let document = String(decoding: try directory.read("v1/\(Samples.host)/us/ios.json"), as: UTF8.self)
        #expect(!document.contains(Self.pathA))
        #expect(try !Self.manifest(directory).contains(Self.pathA), "an icon never written stays listed")
    }

    @Test("a foreign file at an icon's name is left alone and the icon left out")
    func foreignFileKept() throws {
        let directory = try TemporaryDirectory()
        try directory.write("v1/" + Self.pathA, "not ours")
        let writer = ExportWriter(directory: directory.path, gzip: false)
        let report = Self.export(writer, [Self.roster(lantern: [128: Self.pathA])], icons: [Self.pathA: Self.pngA])
        #expect(report.errors.map(\.code) == [.foreignFile])
        #expect(report.missingIcons == [Self.pathA])
        #expect(try directory.read("v1/" + Self.pathA) == Data("not ours".utf8))
        let document = String(decoding: try directory.read("v1/\(Samples.host)/us/ios.json"), as: UTF8.self)
        #expect(!document.contains(Self.pathA))
    }

    @Test("an icon removed from the tree by someone else is reported missing, and not listed any more")
    func removedBySomeone() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, gzip: false)
        var memory = ExportMemory()
        _ = writer.export(
            [Self.roster(lantern: [128: Self.pathA])], icons: [Self.pathA: Self.pngA], remembering: &memory)
        try FileManager.default.removeItem(atPath: directory.file("v1/" + Self.pathA))
        let report = writer.export([Self.roster(lantern: [128: Self.pathA])], icons: [:], remembering: &memory)
        #expect(report.missingIcons == [Self.pathA])
        #expect(try !Self.manifest(directory).contains(Self.pathA))
    }

    @Test("a roster reused from the last pass (same fingerprint, not rebuilt) keeps the icons it references")
    func reusedRosterKeepsIcons() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, gzip: false)
        let clock = WallClock()
        var memory = ExportMemory(clock: clock)
        let built = NSLock()
        nonisolated(unsafe) var builds = 0
        func deferred() -> ExportRoster {
            let source = Self.roster(lantern: [128: Self.pathA])
            guard case .current(_, _, let apps) = source.content else { return source }
            var roster = source
            roster.content = .deferred(
                now: Samples.revisedAt,
                apps: {
                    built.withLock { builds += 1 }
                    return apps
                })
            roster.fingerprint = [1, 2, 3]
            return roster
        }
        _ = writer.export([deferred()], icons: [Self.pathA: Self.pngA], known: [Self.pathA], remembering: &memory)
        // The files settle (as ExportMemoryTests.settle does): a file written in a pass is read back once before
        // its identity is trusted, so the second pass renders again and the third may reuse.
        clock.settleEverything()
        _ = writer.export([deferred()], icons: [:], known: [Self.pathA], remembering: &memory)
        let report = writer.export([deferred()], icons: [:], known: [Self.pathA], remembering: &memory)
        #expect(report.rostersReused == 1, "the third pass rebuilt the roster")
        #expect(built.withLock { builds } == 2)
        #expect(report.removed == 0)
        #expect(directory.exists("v1/" + Self.pathA))
        #expect(try Self.manifest(directory).contains(Self.pathA))
    }
}
