import Foundation
import ShowcaseCore
import Testing

/// SPEC §17 and §18 through the binary: a `--once` run whose storefront is throttled keeps that storefront's pages as
/// the last good run left them (a new process remembers no earlier pass: the manifest tells).
extension SiteTests {
    @Test("a second --once with one storefront throttled keeps its pages byte for byte and exits 75")
    func throttledOnceKeepsPages() throws {
        let bed = try bed()
        try bed.writeConfig()
        let first = try OneShotRun.run(bed)
        #expect(first.status == 0, "\(first)")
        let jp = siteFiles(bed).filter { $0.hasPrefix("site/jp/") }
        #expect(jp.count > 2, "\(jp)")
        let before = try Dictionary(uniqueKeysWithValues: jp.map { ($0, try Data(contentsOf: siteURL(bed, $0))) })

        // jp's roster is gone from the cache (a partial CI cache restore), and its lookups are refused for longer than
        // the run waits: it keeps its last good files, as the documents do.
        let cached = FileCache(directory: bed.cacheDirectory).rosterURL(
            artistId: TestBed.artistId, storefront: TestBed.storefront("jp"))
        try FileManager.default.removeItem(at: cached)
        bed.replay.inject(.status(429, retryAfter: "3600"), matching: "country=jp")
        let second = try OneShotRun.run(bed, ["--max-wait", "2s"], timeout: .seconds(120))
        #expect(second.status == 75, "\(second)")
        #expect(second.lines.contains { $0.hasPrefix("\(TestBed.tideLog) jp: unavailable") }, "\(second.stdout)")
        #expect(bed.exportedFiles().contains("\(TestBed.tideLog)/jp/ios.json"), "the documents were kept")
        #expect(siteFiles(bed).filter { $0.hasPrefix("site/jp/") } == jp)
        for (file, bytes) in before {
            #expect((try? Data(contentsOf: siteURL(bed, file))) == bytes, "\(file) changed")
        }
        #expect(try text(bed, "site/sitemap.xml").contains("https://example.com/apps/jp/"))
    }

    func siteURL(_ bed: TestBed, _ relative: String) -> URL { bed.exportDirectory.appendingPathComponent(relative) }
}
