import Foundation
import Testing

/// SPEC §18 and §19 through the binary: the global overlay's `labels` reach the site's pages in that language only.
extension SiteTests {
    @Test("the global overlay's labels reach the site after a reload, rewriting only the pages that show the label")
    func labelReload() throws {
        let bed = try bed()
        try bed.start(environment: ["STATE_DIRECTORY": bed.directory.appendingPathComponent("state").path])
        try bed.waitUntilWarm()
        #expect(try bed.export().error == nil)
        let french = "site/ca/fr/\(Self.lanternlight)/index.html"
        #expect(!(try text(bed, french)).contains("Aussi de"))
        for file in siteFiles(bed) {
            try FileManager.default.setAttributes(
                [.modificationDate: TestBed.longAgo], ofItemAtPath: siteURL(bed, file).path)
        }
        let before = try stamps(bed)

        try bed.writeOverlay("labels:\n  fr: {more_from: \"Aussi de {developer}\"}\n")
        #expect(try bed.reload().error == nil)
        #expect(try bed.export().error == nil)
        let page = try text(bed, french)
        #expect(page.contains("Aussi de"), "\(page)")
        #expect(!(try text(bed, "site/ca/\(Self.lanternlight)/index.html")).contains("Aussi de"))
        let after = try stamps(bed)
        let rewritten = before.keys.filter { after[$0] != before[$0] }
            .filter { !$0.hasSuffix(".gz") && !$0.hasSuffix(".showcase-manifest") }.sorted()
        let showing = try siteFiles(bed).filter { $0.hasSuffix(".html") }
            .filter { try text(bed, $0).contains("Aussi de") }
        #expect(showing.allSatisfy { $0.hasPrefix("site/ca/fr/") })
        // Every app page of ca/fr shows "More from" (each has other apps of its developer there).
        #expect(showing.count == 17, "\(showing)")
        #expect(rewritten == (showing + ["site/sitemap.xml"]).sorted(), "\(rewritten)")
    }
}
