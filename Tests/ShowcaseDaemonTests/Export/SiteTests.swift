import Foundation
import Testing

/// SPEC §18 through the binary: `export.site` written by `showcased --once` and by the daemon, in us, jp, ca (en,
/// fr) and gb (where the lookup finds none of Quiet Harbor's apps, so there is no page), and a reload that changes one
/// developer's tagline rewriting exactly the pages that show it.
@Suite("The site, end to end", .serialized)
struct SiteTests {
    static let beacon = "com.lamplight.Beacon"
    static let lanternlight = 1_641_000_103

    /// A bed exporting Quiet Harbor (TideLog) with a site, Lanternlight's support and privacy pages configured.
    func bed(hosts: [String] = [TestBed.tideLog]) throws -> TestBed {
        let bed = try TestBed()
        bed.hosts = hosts
        bed.storefronts = ["us", "jp", "{code: ca, languages: [en, fr]}", "gb"]
        try "# Support\n\nWrite to **help@example.com**.\n".write(
            to: bed.directory.appendingPathComponent("support.md"), atomically: true, encoding: .utf8)
        try "# Privacy\n\n| data | kept |\n|---|---|\n| none | never |\n".write(
            to: bed.directory.appendingPathComponent("privacy.md"), atomically: true, encoding: .utf8)
        bed.extra = """
            export:
              directory: \(bed.exportDirectory.path)
              gzip: true
              site:
                url: https://example.com/apps/
                pages:
                  \(Self.lanternlight): {support: support.md, privacy: privacy.md}

            """
        return bed
    }

    /// Every regular file under `site/`, relative to the export directory, sorted.
    func siteFiles(_ bed: TestBed) -> [String] {
        let base = bed.exportDirectory.path
        let enumerator = FileManager.default.enumerator(atPath: base + "/site")
        var found: [String] = []
        while let next = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/site/" + next, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                found.append("site/" + next)
            }
        }
        return found.sorted()
    }

    func text(_ bed: TestBed, _ relative: String) throws -> String {
        try String(contentsOf: bed.exportDirectory.appendingPathComponent(relative), encoding: .utf8)
    }

    func stamps(_ bed: TestBed) throws -> [String: String] {
        try Dictionary(
            uniqueKeysWithValues: siteFiles(bed).map { file in
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: bed.exportDirectory.appendingPathComponent(file).path)
                return (file, "\(attributes[.systemFileNumber] ?? 0) \(attributes[.modificationDate] ?? 0)")
            })
    }

    @Test("showcased --once writes the site: pages per storefront and language with apps, none for gb; again, nothing")
    func once() throws {
        let bed = try bed()
        try bed.writeConfig()
        let run = try OneShotRun.run(bed)
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let files = siteFiles(bed).filter { !$0.hasSuffix(".gz") }
        let pages = files.filter { $0.hasSuffix("/index.html") }
        #expect(!files.contains { $0.hasPrefix("site/gb/") })
        for (edition, apps) in [("us", 17), ("jp", 16), ("ca", 17), ("ca/fr", 17)] {
            let inEdition = pages.filter {
                $0.hasPrefix("site/\(edition)/") && !(edition == "ca" && $0.hasPrefix("site/ca/fr/"))
            }
            // The developer page, one page per app (TideLog, the host, too), Lanternlight's support and privacy.
            #expect(inEdition.count == 1 + apps + 2, "\(edition): \(inEdition)")
        }
        #expect(files.contains("site/showcase.css") && files.contains("site/sitemap.xml"))
        #expect(files.contains("site/us/index.html") && siteFiles(bed).contains("site/us/index.html.gz"))
        let sitemap = try text(bed, "site/sitemap.xml")
        #expect(sitemap.components(separatedBy: "<url>").count - 1 == pages.count)
        #expect(!sitemap.contains("/gb/"))
        let french = try text(bed, "site/ca/fr/\(Self.lanternlight)/index.html")
        #expect(french.contains("<html lang=\"fr-CA\">"))
        #expect(french.contains("hreflang=\"ja-JP\" href=\"https://example.com/apps/jp/\(Self.lanternlight)/\""))
        #expect(!french.contains("/gb/"))
        let mac = try text(bed, "site/us/1641000202/index.html")
        #expect(!mac.contains("apple-itunes-app"))
        #expect(try text(bed, "site/us/\(Self.lanternlight)/index.html").contains("apple-itunes-app"))
        #expect(try text(bed, "site/us/\(Self.lanternlight)/support/index.html").contains("help@example.com"))

        let before = try stamps(bed)
        let again = try OneShotRun.run(bed)
        #expect(again.status == 0)
        #expect(try stamps(bed) == before, "a second run inside refresh.interval rewrites no page")
    }

    @Test("a reload changing one developer's tagline rewrites exactly the pages that show it")
    func taglineReload() throws {
        let bed = try bed(hosts: [TestBed.tideLog, Self.beacon])
        try "{}\n".write(to: bed.directory.appendingPathComponent("beacon.yaml"), atomically: true, encoding: .utf8)
        bed.hostOverlays = [Self.beacon: "beacon.yaml"]
        try bed.start(environment: ["STATE_DIRECTORY": bed.directory.appendingPathComponent("state").path])
        try bed.waitUntilWarm()
        #expect(try bed.export().error == nil)
        let us = try text(bed, "site/us/index.html")
        #expect(us.contains("Quiet Harbor Labs") && us.contains("Lamplight Works"))
        #expect(!(try text(bed, "site/jp/index.html")).contains("Lamplight Works"))
        // No host is excluded on the site: TideLog and Beacon have pages of their own.
        #expect(siteFiles(bed).contains("site/us/1641000101/index.html"))
        #expect(siteFiles(bed).contains("site/us/1642000101/index.html"))
        #expect(!siteFiles(bed).contains { $0.hasPrefix("site/gb/") })

        for file in siteFiles(bed) {
            try FileManager.default.setAttributes(
                [.modificationDate: TestBed.longAgo],
                ofItemAtPath: bed.exportDirectory.appendingPathComponent(file).path)
        }
        let before = try stamps(bed)
        try "taglines:\n  1642000102: \"Worn on the wrist\"\n".write(
            to: bed.directory.appendingPathComponent("beacon.yaml"), atomically: true, encoding: .utf8)
        #expect(try bed.reload().error == nil)
        #expect(try bed.export().error == nil)
        let after = try stamps(bed)
        let rewritten = before.keys.filter { after[$0] != before[$0] }
            .filter { !$0.hasSuffix(".gz") && !$0.hasSuffix(".showcase-manifest") }.sorted()
        let showing = try siteFiles(bed).filter { $0.hasSuffix(".html") }
            .filter { try text(bed, $0).contains("Worn on the wrist") }
        #expect(rewritten == (showing + ["site/sitemap.xml"]).sorted())
        // Lamplight's us developer page and its 9 app pages (Beacon's own included); none of Quiet Harbor's.
        #expect(showing.count == 10)
        #expect(bed.daemon?.log.contains("; 10 site pages rendered, 78 reused") == true, "\(bed.daemon?.log ?? "")")
    }
}
