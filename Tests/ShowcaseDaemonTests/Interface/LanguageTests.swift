import Foundation
import Testing

/// Storefront languages through the real binary and the loopback replay server: `{code: ca, languages: [en, fr]}`
/// fetches each language with `lang=<language>_ca`, `Get`'s `locale` picks the roster, Status, the cache and the
/// export keep one entry per language (README "Languages").
@Suite("Storefront languages", .serialized)
struct LanguageTests {
    /// TideLog warm in Canada in English and French, exporting.
    func canadianBed() throws -> TestBed {
        let bed = try TestBed()
        bed.hosts = [TestBed.tideLog]
        bed.storefronts = ["{code: ca, languages: [en, fr]}"]
        bed.enableExport()
        try bed.start()
        try bed.waitUntilWarm()
        return bed
    }

    func names(_ reply: Reply) -> [String] { reply.apps.compactMap { $0["name"] as? String } }

    @Test("a French locale gets the French roster, none the English one, each fetched once with its own lang")
    func localePicksLanguage() throws {
        let bed = try canadianBed()
        let french = try bed.get("ca", ["locale": "fr-CA"])
        #expect(french.error == nil, "\(french)")
        #expect(names(french).contains("Knotbook – Carnet de nœuds"), "\(names(french))")
        #expect(french.apps.contains { $0["formattedPrice"] as? String == "2,99 $" })
        let english = try bed.get("ca")
        #expect(names(english).contains("Knotbook"), "\(names(english))")
        #expect(!names(english).contains("Knotbook – Carnet de nœuds"))
        #expect(names(try bed.get("ca", ["locale": "fr"])) == names(french))

        let rosters = bed.requests(matching: "entity=software")
        #expect(rosters.filter { $0.query["lang"] == "fr_ca" }.count == 1, "\(rosters.map(\.target))")
        #expect(rosters.filter { $0.query["lang"] == "en_ca" }.count == 1, "\(rosters.map(\.target))")
        #expect(rosters.count == 2)
        #expect(bed.requests(matching: "bundleId=").allSatisfy { $0.query["lang"] == nil })
    }

    @Test("Status has one ca row per language; the cache one file per language; the export a tree per language")
    func statusCacheExport() throws {
        let bed = try canadianBed()
        let rows = try bed.status()["storefronts"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["code"] as? String } == ["ca", "ca"])
        #expect(rows.map { $0["language"] as? String } == ["en", "fr"])
        #expect(rows.allSatisfy { $0["state"] as? String == "fresh" })

        let files = try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory.path)
        let rosterFiles = files.filter { $0.hasPrefix("roster-") }.sorted()
        #expect(rosterFiles.count == 2, "\(files)")
        #expect(rosterFiles.contains { $0.hasPrefix("roster-1641000001-ca-en-") })
        #expect(rosterFiles.contains { $0.hasPrefix("roster-1641000001-ca-fr-") })

        let reply = try bed.export()
        #expect(reply.error == nil, "\(reply)")
        let host = TestBed.tideLog
        let exported = bed.exportedFiles().filter { $0.hasSuffix(".json") && $0 != "index.json" }
        #expect(
            exported == [
                "\(host)/ca/en/ios.json", "\(host)/ca/en/macos.json", "\(host)/ca/fr/ios.json",
                "\(host)/ca/fr/macos.json", "\(host)/ca/ios.json", "\(host)/ca/macos.json",
            ])
        let frenchDocument = try bed.exportedJSON("\(host)/ca/fr/ios.json")
        #expect(frenchDocument["language"] as? String == "fr")
        let frenchApps = frenchDocument["apps"] as? [[String: Any]] ?? []
        #expect(frenchApps.contains { $0["name"] as? String == "Knotbook – Carnet de nœuds" })
        // The plain path holds the default (first) language.
        let plain = try bed.exportedJSON("\(host)/ca/ios.json")
        #expect(plain["language"] as? String == "en")
        #expect((plain["apps"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "Knotbook" })
        let index = try bed.exportedJSON("index.json")
        let documents = index["documents"] as? [[String: Any]] ?? []
        #expect(
            documents.first { $0["path"] as? String == "\(host)/ca/fr/ios.json" }?["language"] as? String == "fr")
    }

    @Test("Watch follows the default language; a restart serves both languages from their cache files")
    func watchAndRestart() throws {
        let bed = try canadianBed()
        let watcher = try bed.client()
        let first = try watcher.call("io.showcase.Roster.Watch", ["storefront": "ca"])
        #expect(names(first).contains("Knotbook"), "\(first)")
        #expect(!names(first).contains("Knotbook – Carnet de nœuds"))

        let requests = bed.requests(matching: "entity=software").count
        _ = try bed.daemon?.stop()
        try bed.start()
        let french = try bed.get("ca", ["locale": "fr-CA"])
        #expect(names(french).contains("Knotbook – Carnet de nœuds"), "\(french)")
        #expect(try bed.get("ca").string("state") == "fresh")
        #expect(bed.requests(matching: "entity=software").count == requests)
    }
}
