import Foundation
import ShowcaseCore
import Testing

@Suite("File cache: diagnostics")
struct FileCacheDiagnosticsTests {
    let directory: URL
    let cache: FileCache

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("showcase-diagnostics-\(UUID().uuidString)", isDirectory: true)
        cache = FileCache(directory: directory)
    }

    func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    static let recordedAt = Date(timeIntervalSince1970: 1_800_000_123.456)

    static func diagnostic(
        _ subject: FileCache.Diagnostic.Subject, _ code: String, _ error: LookupError
    ) throws -> FileCache.Diagnostic {
        try #require(
            FileCache.Diagnostic(
                subject: subject, storefront: Fixtures.storefront(code), error: error, recordedAt: recordedAt))
    }

    /// One of each diagnostic case, for three different keys.
    static func samples() throws -> [FileCache.Diagnostic] {
        [
            try diagnostic(
                .host(bundleId: Fixtures.tideLog), "de",
                .hostAppNotFound(bundleId: Fixtures.tideLog, storefront: Fixtures.storefront("de"))),
            try diagnostic(.roster(artistId: Fixtures.artistId), "jp", .malformed(detail: "body is not JSON")),
            try diagnostic(
                .roster(artistId: Fixtures.artistId), "us",
                .missingEntityParameter(storefront: .unitedStates, resultCount: 5)),
        ]
    }

    @Test("every diagnostic case loads back exactly, with its time, and leaves the cached roster byte for byte")
    func roundTrip() throws {
        try cache.store(Fixtures.roster("jp"))
        let rosterURL = cache.rosterURL(artistId: Fixtures.artistId, storefront: Fixtures.storefront("jp"))
        let rosterBytes = try Data(contentsOf: rosterURL)
        let samples = try Self.samples()
        for diagnostic in samples { try cache.store(diagnostic) }

        let loaded = cache.loadAllDiagnostics()
        #expect(Set(loaded.map(\.subject)) == Set(samples.map(\.subject)))
        for diagnostic in samples {
            #expect(loaded.filter { $0 == diagnostic }.count == 1, "\(diagnostic) not in \(loaded)")
        }
        #expect(try Data(contentsOf: rosterURL) == rosterBytes)
        #expect(cache.loadAllRosters().count == 1)
        #expect(cache.listRosters().count == 1)
        #expect(files().count == 1 + samples.count, "no temporary files left: \(files())")
    }

    @Test("a transport failure cannot be stored as a diagnostic, since it says nothing about the data")
    func transportIsNotADiagnostic() {
        let failures: [LookupError] = [
            .connection(detail: "refused"), .timeout(.seconds(5)), .httpStatus(500),
            .throttled(status: 429, retryAfter: .seconds(30)),
        ]
        for error in failures {
            #expect(
                FileCache.Diagnostic(
                    subject: .roster(artistId: 1), storefront: .unitedStates, error: error, recordedAt: Date()) == nil)
        }
    }

    @Test("a newer diagnostic for the same roster replaces the previous one")
    func rewrite() throws {
        try cache.store(try Self.diagnostic(.roster(artistId: 7), "de", .malformed(detail: "first")))
        try cache.store(try Self.diagnostic(.roster(artistId: 7), "de", .malformed(detail: "second")))
        #expect(cache.loadAllDiagnostics().map(\.error) == [.malformed(detail: "second")])
        #expect(files().count == 1)
    }

    @Test("a corrupt, foreign or misplaced diagnostic file is a miss, never a crash")
    func unusableIsMiss() throws {
        let good = try Self.diagnostic(.roster(artistId: 7), "de", .malformed(detail: "html"))
        try cache.store(good)
        let url = cache.diagnosticURL(for: good.subject, storefront: good.storefront)
        let bytes = try Data(contentsOf: url)
        let text = String(decoding: bytes, as: UTF8.self)
        let variants: [Data] = [
            Data(), Data("hello".utf8), Data([0xFF, 0x00, 0x0A]), bytes.prefix(bytes.count / 2),
            Data(text.replacingOccurrences(of: "showcase-diagnostic", with: "showcase-roster").utf8),
            Data(text.replacingOccurrences(of: "\"malformed\"", with: "\"connection\"").utf8),
            Data(text.replacingOccurrences(of: "\"version\":1", with: "\"version\":99").utf8),
            Data(text.replacingOccurrences(of: "\"storefront\":\"de\"", with: "\"storefront\":\"zz\"").utf8),
        ]
        for variant in variants {
            #expect(variant != bytes)
            try variant.write(to: url)
            #expect(cache.loadAllDiagnostics().isEmpty, "\(String(decoding: variant, as: UTF8.self))")
        }

        // A valid file copied under another key's name describes that other key: it is not served for it.
        try FileManager.default.removeItem(at: url)
        try bytes.write(to: cache.diagnosticURL(for: .roster(artistId: 7), storefront: .unitedStates))
        #expect(cache.loadAllDiagnostics().isEmpty)

        // A directory where a file should be.
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        #expect(cache.loadAllDiagnostics().isEmpty)
    }

    @Test("removing a diagnostic removes only that one, and removing a missing one is harmless")
    func removal() throws {
        let samples = try Self.samples()
        for diagnostic in samples { try cache.store(diagnostic) }
        cache.removeDiagnostic(for: .roster(artistId: Fixtures.artistId), storefront: Fixtures.storefront("jp"))
        cache.removeDiagnostic(for: .roster(artistId: Fixtures.artistId), storefront: Fixtures.storefront("fr"))
        #expect(Set(cache.loadAllDiagnostics().map(\.storefront.code)) == ["de", "us"])
    }

    @Test("a host resolved anywhere has its diagnostics removed in every storefront, and no other host's")
    func removeHostEverywhere() throws {
        for code in ["de", "jp"] {
            let storefront = Fixtures.storefront(code)
            for host in [Fixtures.tideLog, Fixtures.knotbook] {
                try cache.store(
                    try Self.diagnostic(
                        .host(bundleId: host), code, .hostAppNotFound(bundleId: host, storefront: storefront)))
            }
        }
        try cache.store(try Self.diagnostic(.roster(artistId: 7), "de", .malformed(detail: "html")))
        cache.removeDiagnostics(for: .host(bundleId: Fixtures.tideLog))
        let left = cache.loadAllDiagnostics()
        #expect(left.count == 3)
        #expect(!left.contains { $0.subject == .host(bundleId: Fixtures.tideLog) })
    }

    @Test(
        "no host name can move a diagnostic file out of the cache directory",
        arguments: ["../../etc/passwd", "/etc/passwd", "..", ".hidden", "a\u{0}b", "ü/ñ"])
    func cannotEscape(bundleId: String) throws {
        let url = cache.diagnosticURL(for: .host(bundleId: bundleId), storefront: .unitedStates)
        #expect(url.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        #expect(!url.lastPathComponent.hasPrefix("."))
        let diagnostic = try Self.diagnostic(
            .host(bundleId: bundleId), "us", .hostAppNotFound(bundleId: bundleId, storefront: .unitedStates))
        try cache.store(diagnostic)
        #expect(cache.loadAllDiagnostics() == [diagnostic])
    }
}
