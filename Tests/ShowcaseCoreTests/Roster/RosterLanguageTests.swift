import Foundation
import ShowcaseCore
import Testing

@Suite("Roster languages: lang=<language>_<storefront>, one cache file and one request per language")
struct RosterLanguageTests {
    let endpoint = URL(string: "https://itunes.apple.com/lookup")!
    let ca = Fixtures.storefront("ca")
    let french = RosterLanguage(parsing: "fr")!

    @Test("a roster in a language adds lang=fr_ca after the country; without a language nothing changes")
    func rosterURLCarriesLang() {
        let inFrench = LookupRequest.roster(artistId: 1_641_000_001, storefront: ca, language: french)
        #expect(
            inFrench.url(endpoint: endpoint).absoluteString
                == "https://itunes.apple.com/lookup?id=1641000001&entity=software&limit=200&country=ca&lang=fr_ca")
        let plain = LookupRequest.roster(artistId: 1_641_000_001, storefront: ca)
        #expect(
            plain.url(endpoint: endpoint).absoluteString
                == "https://itunes.apple.com/lookup?id=1641000001&entity=software&limit=200&country=ca")
        #expect(inFrench.description == "roster 1641000001/ca/fr")
        #expect(inFrench.edition == StorefrontEdition(ca, language: french))
    }

    @Test("a language is an ISO 639-1 code, any case, lowercased; a locale's language subtag is found")
    func parsing() {
        #expect(RosterLanguage(parsing: "FR")?.code == "fr")
        #expect(RosterLanguage(parsing: "Ja")?.code == "ja")
        #expect(RosterLanguage(parsing: "gsw") == nil, "three letters are ISO 639-2/3, not 639-1")
        #expect(RosterLanguage(parsing: "fra") == nil)
        #expect(RosterLanguage(parsing: "xx") == nil, "two letters the standard does not define")
        #expect(RosterLanguage(parsing: "sh") == nil, "deprecated in favour of sr, hr and bs")
        #expect(RosterLanguage(parsing: "f") == nil)
        #expect(RosterLanguage(parsing: "fr-CA") == nil)
        #expect(RosterLanguage(parsing: "fra1") == nil)
        #expect(RosterLanguage(parsing: "fé") == nil)
        #expect(RosterLanguage.subtag(of: "fr-CA") == french)
        #expect(RosterLanguage.subtag(of: "fr_ca") == french)
        #expect(RosterLanguage.subtag(of: "zh-Hant-TW")?.code == "zh")
        #expect(RosterLanguage.subtag(of: "") == nil)
        #expect(RosterLanguage.subtag(of: "gsw-CH") == nil)
    }

    @Test("the ISO 639-1 table has its 184 two-letter lowercase codes")
    func isoTable() {
        #expect(RosterLanguage.iso639_1.count == 184)
        #expect(RosterLanguage.iso639_1.allSatisfy { $0.utf8.count == 2 && $0 == $0.lowercased() })
        for code in ["en", "fr", "de", "ja", "zh", "iu", "zu", "aa", "bh"] {
            #expect(RosterLanguage(parsing: code)?.code == code)
        }
    }

    @Test("one roster request per developer, storefront and language")
    func onePerLanguage() {
        let identities = [
            Fixtures.tideLog: HostIdentity(
                bundleId: Fixtures.tideLog, artistId: Fixtures.artistId, trackId: Fixtures.tideLogId,
                storefront: .unitedStates, resolvedAt: Date()),
            Fixtures.knotbook: HostIdentity(
                bundleId: Fixtures.knotbook, artistId: Fixtures.artistId, trackId: Fixtures.knotbookId,
                storefront: .unitedStates, resolvedAt: Date()),
        ]
        let english = RosterLanguage(parsing: "en")!
        let editions = [
            StorefrontEdition(.unitedStates), StorefrontEdition(ca, language: english),
            StorefrontEdition(ca, language: french),
        ]
        let requests = RefreshPlan.rosterRequests(
            hosts: [Fixtures.tideLog, Fixtures.knotbook], identities: identities, editions: editions + editions)
        #expect(
            requests == [
                LookupRequest.roster(artistId: Fixtures.artistId, storefront: .unitedStates),
                .roster(artistId: Fixtures.artistId, storefront: ca, language: english),
                .roster(artistId: Fixtures.artistId, storefront: ca, language: french),
            ])
    }

    @Test("each language has its own cache file beside the plain one, listed with its language")
    func cacheFilePerLanguage() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("showcase-cache-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = FileCache(directory: directory)
        let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let english = try Roster(
            artistId: Fixtures.artistId, storefront: ca, body: Fixtures.data("roster-1641000001-ca.json"),
            fetchedAt: fetchedAt)
        let inFrench = try Roster(
            artistId: Fixtures.artistId, storefront: ca, body: Fixtures.data("roster-1641000001-ca-fr.json"),
            fetchedAt: fetchedAt)
        try cache.store(english)
        try cache.store(inFrench, language: french)

        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.count == 2)
        #expect(names.contains { $0.hasPrefix("roster-1641000001-ca-fr-") })
        // The plain file keeps the name (and header) it had before languages existed.
        #expect(names.contains(cache.rosterURL(artistId: Fixtures.artistId, storefront: ca).lastPathComponent))
        let plainBytes = try Data(contentsOf: cache.rosterURL(artistId: Fixtures.artistId, storefront: ca))
        #expect(!String(decoding: plainBytes.prefix(400), as: UTF8.self).contains("language"))

        let loaded = try #require(cache.loadRoster(artistId: Fixtures.artistId, storefront: ca, language: french))
        #expect(loaded.apps.contains { $0.name == "TideLog : tables des marées" })
        let plain = try #require(cache.loadRoster(artistId: Fixtures.artistId, storefront: ca))
        #expect(plain.apps.contains { $0.name == "TideLog: Tide Tables" })
        #expect(
            cache.loadRoster(artistId: Fixtures.artistId, storefront: ca, language: RosterLanguage(parsing: "de"))
                == nil)

        let listed = cache.listRosters().sorted { ($0.language?.code ?? "") < ($1.language?.code ?? "") }
        #expect(listed.map(\.language) == [nil, french])
        let decoded = try #require(cache.loadRoster(listed: listed[1]))
        #expect(decoded.apps.contains { $0.name == "TideLog : tables des marées" })
    }

    @Test("a French file renamed to the plain name is not taken for the plain roster")
    func fileUnderAnotherKeysName() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("showcase-cache-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = FileCache(directory: directory)
        let inFrench = try Roster(
            artistId: Fixtures.artistId, storefront: ca, body: Fixtures.data("roster-1641000001-ca-fr.json"),
            fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try cache.store(inFrench, language: french)
        try FileManager.default.moveItem(
            at: cache.rosterURL(artistId: Fixtures.artistId, storefront: ca, language: french),
            to: cache.rosterURL(artistId: Fixtures.artistId, storefront: ca))
        #expect(cache.loadRoster(artistId: Fixtures.artistId, storefront: ca) == nil)
        #expect(cache.listRosters().isEmpty)
    }

    @Test("a diagnostic of one language is stored and read back apart from the plain storefront's")
    func diagnosticPerLanguage() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("showcase-cache-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = FileCache(directory: directory)
        let diagnostic = try #require(
            FileCache.Diagnostic(
                subject: .roster(artistId: Fixtures.artistId, language: french), storefront: ca,
                error: .malformed(detail: "no rows"), recordedAt: Date(timeIntervalSince1970: 1_800_000_000)))
        try cache.store(diagnostic)
        #expect(cache.loadAllDiagnostics() == [diagnostic])
        cache.removeDiagnostic(for: .roster(artistId: Fixtures.artistId), storefront: ca)
        #expect(cache.loadAllDiagnostics() == [diagnostic])
        cache.removeDiagnostic(for: .roster(artistId: Fixtures.artistId, language: french), storefront: ca)
        #expect(cache.loadAllDiagnostics().isEmpty)
    }
}
