import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

@Suite("The site's memory is bounded by a batch, not by the site")
struct SiteBoundTests {
    /// The most files held at once to be written over a first export of Quiet Harbor in `storefronts`, its sitemap
    /// in parts of one URL.
    private func mostHeld(_ storefronts: [String]) throws -> (held: Int, rendered: Int, report: ExportReport) {
        let directory = try TemporaryDirectory()
        let most = Most()
        var site = SiteWriter(settings: SiteSamples.site, sitemapLimit: 1)
        site.batchLimit = 1
        site.observer = { most.see($0) }
        let writer = ExportWriter(directory: directory.path, gzip: true, site: site)
        let rosters = try storefronts.map {
            SiteSamples.roster(SiteSamples.harbor, try Storefront(parsing: $0), apps: SiteSamples.harborApps())
        }
        var memory = ExportMemory(clock: WallClock())
        let report = writer.export(rosters, remembering: &memory)
        for code in storefronts { #expect(directory.exists("site/\(code)/1641000202/index.html.gz")) }
        let index = String(decoding: try directory.read("site/sitemap.xml"), as: UTF8.self)
        #expect(index.components(separatedBy: "<sitemap>").count - 1 == storefronts.count * 4)
        #expect(directory.files().filter { $0.hasPrefix("site/sitemap-") }.count == storefronts.count * 8)
        return (most.value, report.pagesRendered, report)
    }

    @Test("an export writes and drops pages and sitemap parts as it makes them, however many storefronts there are")
    func bounded() throws {
        let few = try mostHeld(["us", "jp"])
        let many = try mostHeld(["us", "jp", "ca", "gb", "de", "fr", "it", "es", "au", "nl", "se", "br"])
        #expect(few.report.succeeded && many.report.succeeded, "\(many.report.errors)")
        #expect(many.rendered == 48)
        // A page or a sitemap part with its .gz; the manifest-listed stylesheet rides with the last page.
        #expect(few.held <= 4)
        #expect(many.held == few.held)
    }
}

/// The largest number it was told.
private final class Most: @unchecked Sendable {
    private let lock = NSLock()
    private var most = 0
    var value: Int { lock.withLock { most } }
    func see(_ count: Int) { lock.withLock { most = max(most, count) } }
}

@Suite("The site's .gz files")
struct SiteGzipTests {
    @Test("are written at zlib's fastest level (XFL 4), compressed on every core, and inflate to the page")
    func fastest() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        let report = SiteSamples.writer(directory).export(SiteSamples.rosters(), remembering: &memory)
        #expect(report.succeeded, "\(report.errors)")
        for page in ["us/index.html", "ca/fr/1641000103/index.html", "sitemap.xml", "showcase.css"] {
            let compressed = try directory.read("site/" + page + ".gz")
            #expect(compressed[8] == 4, "\(page).gz: XFL \(compressed[8])")
            let page = try directory.read("site/" + page)
            #expect(Gzip.decompress(compressed, limit: page.count) == page)
        }
        let files = (0..<40).map { number in
            PlannedFile(
                path: "\(number).gz", source: Data(String(repeating: "page \(number) ", count: 999).utf8),
                digest: ContentDigest(Data()), isGzip: true)
        }
        #expect(SiteWriter.bytes(of: files) == files.map { $0.bytes() })
    }
}
