import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

@Suite("sitemap.xml: the protocol's limits")
struct SitemapTests {
    private func entries(_ count: Int, alternates: Int) -> [Sitemap.Entry] {
        (0..<count).map { page in
            Sitemap.Entry(
                url: "https://example.com/apps/us/\(page)/", modified: Date(timeIntervalSince1970: Double(page)),
                alternates: (0..<alternates).map { ("en-\($0)", "https://example.com/apps/s\($0)/\(page)/") })
        }
    }

    @Test("a file over the byte limit becomes an index of parts, each within it, holding every URL once")
    func byteLimit() throws {
        let pages = entries(12, alternates: 20)
        let one = Sitemap(siteURL: "https://example.com/apps/").files(pages, indexModified: Date())
        #expect(one.map(\.name) == ["sitemap.xml"])
        let whole = one[0].bytes.count
        let limit = whole / 3
        let split = Sitemap(siteURL: "https://example.com/apps/", byteLimit: limit).files(pages, indexModified: Date())
        #expect(split.count >= 4)
        #expect(split.first?.name == "sitemap.xml")
        #expect(String(decoding: split[0].bytes, as: UTF8.self).contains("<sitemapindex"))
        for part in split.dropFirst() { #expect(part.bytes.count <= limit) }
        let urls = split.dropFirst().flatMap { part in
            String(decoding: part.bytes, as: UTF8.self).components(separatedBy: "<url><loc>").dropFirst()
                .map { $0.prefix { $0 != "<" } }
        }
        #expect(urls == pages.map { Substring($0.url) })
        // The index's lastmod of a part is its newest page's.
        let last = String(decoding: split[0].bytes, as: UTF8.self)
        #expect(last.contains("<lastmod>\(RFC3339.seconds(Date(timeIntervalSince1970: 11)))</lastmod></sitemap>"))
    }

    @Test("a single URL larger than the byte limit still gets a part of its own")
    func oversizedEntry() {
        let split = Sitemap(siteURL: "https://example.com/apps/", byteLimit: 100).files(
            entries(3, alternates: 5), indexModified: Date())
        #expect(split.map(\.name) == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"])
    }

    @Test("with nothing changed the sitemap is not built again: its files, as the last pass left them, are kept")
    func notBuiltAgain() throws {
        let directory = try TemporaryDirectory()
        let clock = WallClock()
        var memory = ExportMemory(clock: clock)
        let writer = SiteSamples.writer(directory)
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        clock.settleEverything()
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        // Bytes the memory takes for the last pass's own: a pass that built the sitemap would put its own back.
        let planted = Data("<urlset/>\n".utf8)
        let path = directory.file("site/sitemap.xml")
        #expect(FileManager.default.createFile(atPath: path, contents: planted))
        var info = stat()
        #expect(lstat(path, &info) == 0)
        memory.site.files["sitemap.xml"]?.identity = FileIdentity(info)
        memory.site.files["sitemap.xml"]?.digest = ContentDigest(planted)
        let again = writer.export(SiteSamples.rosters(), remembering: &memory)
        #expect(again.written == 0)
        #expect(try directory.read("site/sitemap.xml") == planted)
        // A page that changes makes it built again.
        var rosters = SiteSamples.rosters()
        rosters.removeLast()
        _ = writer.export(rosters, remembering: &memory)
        #expect(try SiteSamples.page(directory, "sitemap.xml").contains("<urlset xmlns="))
    }
}
