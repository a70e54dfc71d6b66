import Foundation
import Testing

/// SPEC §19 "Language" and "Direction" through the binaries: a French-Canadian roster's feed is French, the
/// overlay's labels reach the feed and fragment (a reload rewriting only the files that show them), an Arabic or
/// Hebrew roster's fragment says dir="rtl", and `showcasectl changes --locale fr` reads the French roster's history.
@Suite("Surfaces in the document's language and direction", .serialized)
struct LanguageSurfaceTests {
    static let host = TestBed.tideLog
    static let lanternlight = 1_641_000_103
    static let ropework = 1_641_000_110

    /// TideLog warm in Canada in English and French, exporting fragments and feeds, with the French roster
    /// changed after its baseline: Lanternlight repriced (Gratuit → 1,99 $) and Casse-têtes de cordage gone.
    func canadianBed() throws -> TestBed {
        let bed = try TestBed()
        bed.hosts = [Self.host]
        bed.storefronts = ["{code: ca, languages: [en, fr]}"]
        bed.extra = "export:\n  directory: \(bed.exportDirectory.path)\n  gzip: false\n  html: true\n  feed: true\n"
        try bed.start(environment: ["STATE_DIRECTORY": bed.directory.appendingPathComponent("state").path])
        try bed.waitUntilWarm()
        #expect(try bed.refresh("ca").error == nil)
        var body = try bed.fixtureRoster("ca-fr")
        var results = body["results"] as! [[String: Any]]
        for index in results.indices where (results[index]["trackId"] as? NSNumber)?.intValue == Self.lanternlight {
            results[index]["price"] = 1.99
            results[index]["formattedPrice"] = "1,99 $"
        }
        results.removeAll { ($0["trackId"] as? NSNumber)?.intValue == Self.ropework }
        body["results"] = results
        body["resultCount"] = results.count
        try bed.overrideRoster("ca-fr", body)
        #expect(try bed.refresh("ca").error == nil)
        #expect(try bed.export().error == nil)
        return bed
    }

    func read(_ bed: TestBed, _ file: String) throws -> String {
        try String(contentsOf: bed.exported("\(Self.host)/\(file)"), encoding: .utf8)
    }

    @Test("the French-Canadian feed is French: xml:lang, title and every summary; the English one stays English")
    func frenchFeed() throws {
        let bed = try canadianBed()
        let french = try read(bed, "ca/fr/ios.atom")
        #expect(french.contains(#"<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr-CA">"#), "\(french)")
        #expect(french.contains("<title>Quiet Harbor Labs\u{00A0}: nouveautés (App Store, CA (fr))</title>"))
        #expect(french.contains("<summary type=\"text\">Casse-têtes de cordage n’est plus disponible</summary>"))
        #expect(french.contains("<summary type=\"text\">Lanternlight\u{00A0}: 1,99 $ (auparavant Gratuit)</summary>"))
        for english in ["what changed", "no longer listed", "(was ", "New: "] {
            #expect(!french.contains(english), "\(english)")
        }
        let english = try read(bed, "ca/en/ios.atom")
        #expect(english.contains(#"xml:lang="en-CA""#))
        #expect(english.contains("<title>Quiet Harbor Labs: what changed on the App Store, CA</title>"))
        // The French fragment's rows are named in French punctuation's table: "<name>, App Store".
        #expect(try read(bed, "ca/fr/ios.html").contains(#"aria-label="Lanternlight, App Store""#))
    }

    @Test("the overlay's labels change the feed and fragment; the reload rewrites exactly the files showing them")
    func labelsAndReload() throws {
        let bed = try canadianBed()
        try bed.ageExportedFiles()
        try bed.writeOverlay(
            "labels:\n  fr-CA:\n    feed_removed: \"{name} a quitté la boutique\"\n    app_link: \"{name} sur l’{store}\"\n"
        )
        #expect(try bed.reload().int("generation") == 2)
        let feed = "\(Self.host)/ca/fr/ios.atom"
        do {
            try waitFor(timeout: .seconds(20)) {
                (try? String(contentsOf: bed.exported(feed), encoding: .utf8))?.contains("a quitté la boutique") == true
            }
        } catch { throw HarnessError("the label never reached \(feed): \(bed.daemon?.log ?? "")") }
        #expect(try bed.export().int("written") == 0)
        #expect(
            try read(bed, "ca/fr/ios.atom").contains(
                "<summary type=\"text\">Casse-têtes de cordage a quitté la boutique</summary>"))
        #expect(try read(bed, "ca/fr/ios.html").contains(#"aria-label="Lanternlight sur l’App Store""#))
        #expect(try read(bed, "ca/fr/ios.email.html").contains(#"aria-label="Lanternlight sur l’App Store""#))
        #expect(try read(bed, "ca/en/ios.html").contains(#"aria-label="Lanternlight, App Store""#))
        // The French feed with the removal; the French fragments, email variants and documents (every row is a link,
        // and the widget names it from its document's labels), so index.json with their new revisions; no English
        // file, no Mac feed (no Mac app was removed).
        let french = "\(Self.host)/ca/fr/"
        #expect(
            try bed.rewrittenFiles() == [
                french + "ios.atom", french + "ios.email.html", french + "ios.html", french + "ios.json",
                french + "macos.email.html", french + "macos.html", french + "macos.json", "index.json",
            ])
        let document =
            try JSONSerialization.jsonObject(with: Data(try read(bed, "ca/fr/ios.json").utf8)) as? [String: Any]
        #expect(document?["locale"] as? String == "fr-CA")
        #expect((document?["labels"] as? [String: Any])?["app_link"] as? String == "{name} sur l’{store}")
    }

    @Test("an Arabic and a Hebrew roster's fragment and email say dir=rtl, each name in its own isolate")
    func rightToLeft() throws {
        let bed = try TestBed()
        bed.hosts = [Self.host]
        bed.storefronts = ["sa", "il"]
        bed.extra = "export:\n  directory: \(bed.exportDirectory.path)\n  gzip: false\n  html: true\n  feed: true\n"
        try bed.start(environment: ["STATE_DIRECTORY": bed.directory.appendingPathComponent("state").path])
        try bed.waitUntilWarm()
        #expect(try bed.export().error == nil)
        for (storefront, language) in [("sa", "ar-SA"), ("il", "he-IL")] {
            let fragment = try read(bed, "\(storefront)/ios.html")
            #expect(
                fragment.hasPrefix("<section class=\"showcase\" lang=\"\(language)\" dir=\"rtl\" "),
                "\(fragment.prefix(200))")
            let names = fragment.components(separatedBy: "<span class=\"showcase-name\"><bdi>").count - 1
            #expect(names == fragment.components(separatedBy: "<li ").count - 1 && names > 5)
            #expect(
                try read(bed, "\(storefront)/ios.email.html").hasPrefix(
                    "<table role=\"presentation\" lang=\"\(language)\" dir=\"rtl\" "))
            #expect(try read(bed, "\(storefront)/ios.atom").contains("xml:lang=\"\(language)\""))
        }
        let arabic = try read(bed, "sa/ios.html")
        #expect(arabic.contains("<span class=\"showcase-name\"><bdi>Knotbook – دفتر العُقد</bdi></span>"))
        #expect(arabic.contains("<span class=\"showcase-price\"><bdi>10.99 ر.س.</bdi></span>"))
        #expect(arabic.contains(#"aria-label="Knotbook – دفتر العُقد، App Store""#))
        #expect(try read(bed, "il/ios.html").contains("<span class=\"showcase-price\"><bdi>11.90 ₪</bdi></span>"))
    }

    @Test("showcasectl changes --locale fr lists the French roster's entries; without it, says the French has some")
    func changesLocale() throws {
        let bed = try canadianBed()
        let french = try HealthCheckTests.ctl([
            "--socket", bed.socketPath, "changes", "--storefront", "ca", "--locale", "fr",
        ])
        #expect(french.status == 0, "\(french.stderr)")
        let lines = french.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "ca (fr) · latest 2 · 2 changes · host \(Self.host)", "\(lines)")
        #expect(french.stdout.contains("Casse-têtes de cordage") && french.stdout.contains("Gratuit → 1,99 $"))
        let json = try HealthCheckTests.ctl(
            ["--socket", bed.socketPath, "--json", "changes", "--storefront", "ca", "--locale", "fr-CA"])
        let reply = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(reply["language"] as? String == "fr")
        #expect((reply["changes"] as? [Any])?.count == 2)
        #expect(
            (reply["languages"] as? [[String: Any]])?.map { "\($0["language"] ?? "")=\($0["latest"] ?? "")" } == [
                "en=0", "fr=2",
            ])
        let english = try HealthCheckTests.ctl(["--socket", bed.socketPath, "changes", "--storefront", "ca"])
        #expect(english.status == 0, "\(english.stderr)")
        #expect(english.stdout.hasPrefix("ca (en) · latest 0 · 0 changes"), "\(english.stdout)")
        #expect(english.stdout.contains("the fr roster has changes (latest 2): add --locale fr"), "\(english.stdout)")
        let bad = try HealthCheckTests.ctl([
            "--socket", bed.socketPath, "changes", "--storefront", "ca", "--locale", "f r",
        ])
        #expect(bad.status == 64, "\(bad.stderr)")
    }
}
