import Foundation
import ShowcaseCore
import ShowcaseExport
import ShowcaseHistory
import Testing

@Suite("The site (SPEC §18)")
struct SiteWriterTests {
    @Test("writes a developer page per storefront and language with apps, a page per app, the stylesheet and sitemap")
    func layout() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        let report = SiteSamples.writer(directory).export(SiteSamples.rosters(), remembering: &memory)
        #expect(report.succeeded, "\(report.errors)")
        let site = directory.files().filter { $0.hasPrefix("site/") && !$0.hasSuffix(".gz") }
        #expect(
            site == [
                "site/.showcase-manifest",
                "site/ca/1641000103/index.html", "site/ca/1641000105/index.html", "site/ca/1641000202/index.html",
                "site/ca/1700000001/index.html",
                "site/ca/fr/1641000103/index.html", "site/ca/fr/1641000105/index.html",
                "site/ca/fr/1641000202/index.html", "site/ca/fr/1700000001/index.html", "site/ca/fr/index.html",
                "site/ca/index.html",
                "site/jp/1641000103/index.html", "site/jp/1641000105/index.html", "site/jp/1641000202/index.html",
                "site/jp/index.html",
                "site/showcase.css", "site/sitemap.xml",
                "site/us/1641000103/index.html", "site/us/1641000105/index.html", "site/us/1641000202/index.html",
                "site/us/1700000001/index.html", "site/us/index.html",
            ])
        #expect(directory.exists("site/us/index.html.gz"))
        #expect(report.pagesRendered == 19)
        let manifest = String(decoding: try directory.read("site/.showcase-manifest"), as: UTF8.self)
        #expect(manifest.contains("\nus/1641000103/index.html.gz\n"))
    }

    @Test("every <section> of every page opens with its heading (the Nu checker's \"Section lacks heading\")")
    func sectionsHaveHeadings() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        _ = SiteSamples.writer(directory).export(SiteSamples.rosters(), remembering: &memory)
        var sections = 0
        for file in directory.files() where file.hasSuffix(".html") {
            let text = try SiteSamples.page(directory, String(file.dropFirst("site/".count)))
            for part in text.components(separatedBy: "<section").dropFirst() {
                sections += 1
                let content = part.drop { $0 != ">" }.dropFirst().drop { $0 == "\n" }
                #expect(content.hasPrefix("<h2") || content.hasPrefix("<h3"), "\(file): \(content.prefix(80))")
            }
        }
        #expect(sections > 19)
    }

    @Test("a storefront where no developer has an app has no page, and no alternate or sitemap entry names it")
    func emptyStorefront() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        let rosters = SiteSamples.rosters().map { roster -> ExportRoster in
            guard roster.storefront == Samples.jp else { return roster }
            var empty = roster
            empty.content = .latest(apps: [:], now: Samples.revisedAt)
            return empty
        }
        _ = SiteSamples.writer(directory).export(rosters, remembering: &memory)
        #expect(!directory.exists("site/jp"))
        let us = try SiteSamples.page(directory, "us/index.html")
        #expect(!us.contains("/jp/"))
        #expect(!(try SiteSamples.page(directory, "sitemap.xml")).contains("/jp/"))
        // Lumen Works has nothing in jp: its app has no page there, and its page's alternates skip jp.
        let glowworm = try SiteSamples.page(directory, "us/1700000001/index.html")
        #expect(!glowworm.contains("/jp/"))
    }

    @Test("every alternate of a page links back to it: hreflang is reciprocal, x-default is the first storefront")
    func reciprocal() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        _ = SiteSamples.writer(directory).export(SiteSamples.rosters(), remembering: &memory)
        for page in ["us/1641000103/", "jp/1641000103/", "ca/1641000103/", "ca/fr/1641000103/", "us/", "ca/fr/"] {
            let text = try SiteSamples.page(directory, page + "index.html")
            let own = "https://example.com/apps/" + page
            #expect(text.contains("<link rel=\"canonical\" href=\"\(own)\">"))
            #expect(text.contains("<meta property=\"og:url\" content=\"\(own)\">"))
            let alternates = SiteSamples.alternates(text)
            #expect(alternates["x-default"]?.hasPrefix("https://example.com/apps/us/") == true)
            #expect(alternates.values.contains(own), "\(page) lists itself")
            for (language, url) in alternates where language != "x-default" {
                let other = try SiteSamples.page(
                    directory, String(url.dropFirst("https://example.com/apps/".count)) + "index.html")
                #expect(SiteSamples.alternates(other) == alternates, "\(url) lists the same set back")
            }
        }
        let french = try SiteSamples.page(directory, "ca/fr/1641000103/index.html")
        #expect(french.hasPrefix("<!DOCTYPE html>\n<html lang=\"fr-CA\">"))
        #expect(SiteSamples.alternates(french)["en-CA"] == "https://example.com/apps/ca/1641000103/")
        #expect(SiteSamples.alternates(french)["ja-JP"] == "https://example.com/apps/jp/1641000103/")
        #expect(french.contains("<meta property=\"og:locale\" content=\"fr_CA\">"))
        // The switcher links relatively to the other storefronts and languages, never to itself.
        #expect(french.contains("href=\"../../../us/1641000103/\" hreflang=\"en-US\""))
        #expect(!french.contains("href=\"../../../ca/fr/1641000103/\""))
        // It is written in the page's language: countries from iso-codes, another language of Canada by its own name.
        #expect(french.contains("hreflang=\"en-US\">États-Unis</a>"))
        #expect(french.contains("hreflang=\"ja-JP\">Japon</a>"))
        #expect(french.contains("hreflang=\"en-CA\">Canada – <span lang=\"en\">English</span></a>"))
        #expect(french.contains("<link rel=\"stylesheet\" href=\"../../../showcase.css\">"))
    }

    @Test("an app page: banner on iOS only, store link attributed for the site, JSON-LD, what's new, more from")
    func appPage() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        var rosters = SiteSamples.rosters()
        rosters[0].changes = [
            HistoryEntry(
                serial: 1, at: Samples.revisedAt, kind: .updated, id: 1_641_000_103, name: "Lanternlight",
                platform: .ios, storeUrl: "https://apps.apple.com/us/app/id1641000103", iconUrl: "https://x/1.jpg",
                version: "2.0", versionDate: "2026-10-01T00:00:00Z", releaseNotes: "Tide tables for Maine."),
            HistoryEntry(
                serial: 2, at: Samples.revisedAt, kind: .updated, id: 1_641_000_103, name: "Lanternlight",
                platform: .ios, storeUrl: "https://apps.apple.com/us/app/id1641000103", iconUrl: "https://x/1.jpg",
                version: "2.1", versionDate: "2026-11-01T00:00:00Z", releaseNotes: "Moon phases."),
        ]
        var apps = SiteSamples.harborApps()
        apps[.ios]![0].storeUrls[.site] = "https://apps.apple.com/us/app/id1641000103?ct=site"
        rosters[0].content = .latest(apps: apps, now: Samples.revisedAt)
        _ = SiteSamples.writer(directory).export(rosters, remembering: &memory)
        let page = try SiteSamples.page(directory, "us/1641000103/index.html")
        #expect(page.contains("<meta name=\"apple-itunes-app\" content=\"app-id=1641000103\">"))
        #expect(page.contains("href=\"https://apps.apple.com/us/app/id1641000103?ct=site\""))
        #expect(page.contains("<h2>What’s new</h2>\n<h3>Version <bdi>2.1</bdi></h3>"))
        #expect(page.contains("<time datetime=\"2026-11-01\">2026-11-01</time>"))
        #expect(page.contains("Moon phases."))
        #expect(page.contains("<h2>Earlier versions</h2>\n<h3>Version <bdi>2.0</bdi></h3>"))
        #expect(page.contains("<h2>More from <bdi>Quiet Harbor Labs</bdi></h2>"))
        #expect(page.contains("href=\"../../us/1641000202/\" aria-label=\"ChartTable, Mac App Store\""))
        #expect(page.contains("\"@type\":\"SoftwareApplication\",\"name\":\"Lanternlight\""))
        #expect(!page.contains("<script>") && !page.contains("<script src"))
        let mac = try SiteSamples.page(directory, "us/1641000202/index.html")
        #expect(!mac.contains("apple-itunes-app"))
        let developer = try SiteSamples.page(directory, "us/index.html")
        #expect(developer.contains("<h2><bdi>Quiet Harbor Labs</bdi></h2>"))
        #expect(developer.contains("<h2><bdi>Lumen Works</bdi></h2>"))
        #expect(developer.range(of: "Quiet Harbor Labs")!.lowerBound < developer.range(of: "Lumen Works")!.lowerBound)
        #expect(developer.contains("\"@type\":\"ItemList\""))
    }

    @Test("hostile names and taglines are escaped and isolated on every page")
    func hostile() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        let name = "<script>alert(\"x\")</script>\u{202E}evil'"
        let rosters = SiteSamples.rosters(tagline: "\"><img src=x onerror=y>", name: name)
        _ = SiteSamples.writer(directory).export(rosters, remembering: &memory)
        for path in ["us/1641000103/index.html", "us/index.html", "us/1641000105/index.html"] {
            let page = try SiteSamples.page(directory, path)
            #expect(!page.contains("<script>alert"), "\(path)")
            #expect(!page.contains("<img src=x"), "\(path)")
            #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"), "\(path)")
        }
        let page = try SiteSamples.page(directory, "us/1641000103/index.html")
        #expect(page.contains("<h1><bdi>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\u{202E}evil&#39;</bdi></h1>"))
        #expect(page.contains("\\u003cscript\\u003e"))
    }

    @Test("a page is not rendered again on an unchanged export, and the sitemap's lastmod stays")
    func noOp() throws {
        let directory = try TemporaryDirectory()
        let clock = WallClock()
        var memory = ExportMemory(clock: clock)
        let writer = SiteSamples.writer(directory)
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        let sitemap = try directory.read("site/sitemap.xml")
        let stamp = try SiteSamples.stamp(directory, "site/sitemap.xml")
        clock.settleEverything()
        let again = writer.export(SiteSamples.rosters(), remembering: &memory)
        #expect(again.pagesRendered == 0)
        #expect(again.pagesReused == 19)
        #expect(again.written == 0)
        #expect(try directory.read("site/sitemap.xml") == sitemap)
        #expect(try SiteSamples.stamp(directory, "site/sitemap.xml") == stamp)
        // A fresh memory (a new --once run) renders but writes nothing: the same bytes, the same lastmod.
        var fresh = ExportMemory(clock: clock)
        let rerun = writer.export(SiteSamples.rosters(), remembering: &fresh)
        #expect(rerun.written == 0)
        #expect(try directory.read("site/sitemap.xml") == sitemap)
    }

    @Test("a page edited in place, or a .gz removed, behind the writer's back is written again; the rest reused")
    func tamperedPagesRestored() throws {
        let directory = try TemporaryDirectory()
        let clock = WallClock()
        var memory = ExportMemory(clock: clock)
        let writer = SiteSamples.writer(directory)
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        let pages = directory.files().filter { $0.hasPrefix("site/us/") && $0.hasSuffix("/index.html") }
            .filter { $0 != "site/us/index.html" }.sorted()
        try #require(pages.count >= 2)
        let edited = pages[0]
        let original = try directory.read(edited)
        // A pass after the files settled remembers their identities: from then on one fstatat tells a page is intact.
        clock.settleEverything()
        #expect(writer.export(SiteSamples.rosters(), remembering: &memory).pagesReused == 19)
        // The same inode and size, one byte changed: only the identity's times can tell.
        let handle = try #require(FileHandle(forWritingAtPath: directory.file(edited)))
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Data("<!doctype".utf8))
        try handle.close()
        try FileManager.default.removeItem(atPath: directory.file(pages[1] + ".gz"))
        let others = try pages.dropFirst(2).map { try SiteSamples.stamp(directory, $0) }
        clock.settleEverything()
        let again = writer.export(SiteSamples.rosters(), remembering: &memory)
        #expect(again.pagesRendered == 2)
        #expect(again.pagesReused == 17)
        #expect(try directory.read(edited) == original)
        #expect(directory.exists(pages[1] + ".gz"))
        // The rest keep inode and mtime (the sitemap may move: a restored page's lastmod is its new mtime).
        #expect(try pages.dropFirst(2).map { try SiteSamples.stamp(directory, $0) } == others)
    }

    @Test("a page's folder swapped for a link to itself moved aside: the page is never written through the link")
    func linkedFolderNotWrittenThrough() throws {
        let directory = try TemporaryDirectory()
        let clock = WallClock()
        var memory = ExportMemory(clock: clock)
        let writer = SiteSamples.writer(directory)
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        clock.settleEverything()
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        // A Quiet Harbor app page: its "More from" list shows the tagline about to change.
        let page = try #require(
            directory.files().filter { $0.hasPrefix("site/us/") && $0.hasSuffix("/index.html") }
                .filter { $0 != "site/us/index.html" }.sorted()
                .first { (try? SiteSamples.page(directory, String($0.dropFirst(5))))?.contains("Tides, lit") == true })
        let folder = directory.file(String(page.dropLast("/index.html".count)))
        let aside = directory.file("aside")
        try FileManager.default.moveItem(atPath: folder, toPath: aside)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: aside)
        let before = try Data(contentsOf: URL(fileURLWithPath: aside + "/index.html"))
        clock.settleEverything()
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        let changed = writer.export(
            SiteSamples.rosters(harborPrint: [2], tagline: "Tides, lit at night"), remembering: &memory)
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside + "/index.html")) == before)
        #expect(changed.errors.contains { $0.code == .unexpectedEntry })
        #expect(try SiteSamples.page(directory, "us/index.html").contains("Tides, lit at night"))
    }

    @Test("a tagline change rewrites exactly the pages that show it, and re-renders only that developer's")
    func taglineReload() throws {
        let directory = try TemporaryDirectory()
        let clock = WallClock()
        var memory = ExportMemory(clock: clock)
        let writer = SiteSamples.writer(directory)
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        // Long-past mtimes, so a page written again has another lastmod whatever second it is now.
        for file in directory.files() where file.hasPrefix("site/") { try directory.age(file) }
        clock.settleEverything()
        let before = try Dictionary(
            uniqueKeysWithValues: directory.files().filter { $0.hasPrefix("site/") }.map {
                ($0, try SiteSamples.stamp(directory, $0))
            })
        let changed = writer.export(
            SiteSamples.rosters(harborPrint: [2], tagline: "Tides, lit at night"), remembering: &memory)
        let rewritten = try before.keys.filter { try SiteSamples.stamp(directory, $0) != before[$0] }
            .filter { !$0.hasSuffix(".gz") && $0 != "site/.showcase-manifest" }.sorted()
        let showing = directory.files().filter {
            $0.hasPrefix("site/") && !$0.hasSuffix(".gz")
                && ((try? SiteSamples.page(directory, String($0.dropFirst(5))))?.contains("Tides, lit at night")
                    ?? false)
        }
        #expect(rewritten == (showing + ["site/sitemap.xml"]).sorted())
        // Quiet Harbor's 4 developer pages and its 12 app pages (each shows the tagline, in "More from" at least);
        // none of Lumen Works' 3 app pages is rendered.
        #expect(showing.count == 16)
        #expect(changed.pagesRendered == 16)
        #expect(changed.pagesReused == 3)
        #expect(
            try SiteSamples.page(directory, "sitemap.xml").contains("<lastmod>\(RFC3339.seconds(Date()).prefix(10))"))
    }

    @Test("an app gone from a storefront loses its page there, and the sitemap forgets it")
    func removedApp() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        let writer = SiteSamples.writer(directory)
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        #expect(directory.exists("site/us/1700000001/index.html.gz"))
        var rosters = SiteSamples.rosters()
        rosters[4].content = .latest(apps: [:], now: Samples.revisedAt)
        rosters[4].fingerprint = [9]
        let report = writer.export(rosters, remembering: &memory)
        #expect(report.succeeded)
        #expect(!directory.exists("site/us/1700000001"))
        #expect(directory.exists("site/ca/1700000001/index.html"))
        #expect(!(try SiteSamples.page(directory, "sitemap.xml")).contains("us/1700000001/"))
        #expect(!(try SiteSamples.page(directory, "ca/1700000001/index.html")).contains("/us/1700000001/"))
        let manifest = String(decoding: try directory.read("site/.showcase-manifest"), as: UTF8.self)
        #expect(!manifest.contains("us/1700000001/"))
    }

    @Test("a foreign file where a page belongs is left alone and reported; files it did not write stay")
    func foreign() throws {
        let directory = try TemporaryDirectory()
        try directory.write("site/us/index.html", "mine")
        try directory.write("site/robots.txt", "User-agent: *")
        var memory = ExportMemory(clock: WallClock())
        let report = SiteSamples.writer(directory).export(SiteSamples.rosters(), remembering: &memory)
        #expect(report.errors.map(\.code) == [.foreignFile])
        #expect(try SiteSamples.page(directory, "us/index.html") == "mine")
        #expect(try SiteSamples.page(directory, "robots.txt") == "User-agent: *")
        #expect(directory.exists("site/us/1641000103/index.html"))
    }

    @Test("over the sitemap limit, sitemap.xml is an index of parts by developer holding every URL once")
    func sitemapIndex() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        _ = SiteSamples.writer(directory, limit: 5).export(SiteSamples.rosters(), remembering: &memory)
        let index = try SiteSamples.page(directory, "sitemap.xml")
        #expect(index.contains("<sitemapindex"))
        // The storefronts' 4 developer pages, Quiet Harbor's 12 app pages in parts of 5, Lumen Works' 3.
        let parts =
            ["sitemap-storefronts-1.xml"] + (1...3).map { "sitemap-artist-1641000001-\($0).xml" }
            + ["sitemap-artist-1700000000-1.xml"]
        for part in parts { #expect(index.contains("<loc>https://example.com/apps/\(part)</loc>")) }
        #expect(index.components(separatedBy: "<sitemap>").count == parts.count + 1)
        let urls = try parts.flatMap { part in
            try SiteSamples.page(directory, part).components(separatedBy: "<loc>").dropFirst()
        }
        #expect(urls.count == 19)
        #expect(try SiteSamples.page(directory, parts[4]).components(separatedBy: "<loc>").count == 4)
        // Back under the limit, the parts are removed.
        _ = SiteSamples.writer(directory).export(SiteSamples.rosters(), remembering: &memory)
        #expect(!directory.files().contains { $0.hasPrefix("site/sitemap-") })
        #expect(!(try SiteSamples.page(directory, "sitemap.xml")).contains("<sitemapindex"))
    }

    @Test("a tagline change rebuilds only its developer's sitemap parts (and the storefronts'), and the index")
    func sitemapPartsByDeveloper() throws {
        let directory = try TemporaryDirectory()
        let clock = WallClock()
        var memory = ExportMemory(clock: clock)
        let writer = SiteSamples.writer(directory, limit: 5)
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        // Long-past mtimes, so a page written again has another lastmod; the parts built again from them.
        for file in directory.files() where file.hasPrefix("site/") { try directory.age(file) }
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        clock.settleEverything()
        let parts = directory.files().filter { $0.hasPrefix("site/sitemap-") }
        let before = try Dictionary(uniqueKeysWithValues: parts.map { ($0, try SiteSamples.stamp(directory, $0)) })
        let index = try SiteSamples.stamp(directory, "site/sitemap.xml")
        _ = writer.export(SiteSamples.rosters(harborPrint: [2], tagline: "Tides, lit at night"), remembering: &memory)
        let kept = try parts.filter { try SiteSamples.stamp(directory, $0) == before[$0] }
        #expect(kept == ["site/sitemap-artist-1700000000-1.xml", "site/sitemap-artist-1700000000-1.xml.gz"])
        #expect(try SiteSamples.stamp(directory, "site/sitemap.xml") != index)
        // Every page Quiet Harbor's tagline shows on is rewritten, and its parts with them.
        #expect(parts.count == 10)
    }

    @Test("support and privacy pages are written and linked when export.site.pages names them")
    func textPages() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        let site = SiteDescription(
            url: "https://example.com/apps/",
            pages: [1_641_000_103: SiteTexts(support: "# Help\n<script>x</script>", privacy: "No data.")])
        _ = SiteSamples.writer(directory, site: site).export(SiteSamples.rosters(), remembering: &memory)
        let app = try SiteSamples.page(directory, "ca/fr/1641000103/index.html")
        // The link's words are the page's language's (French here), after the app's name.
        let supportLabel = Labels.builtIn.text(.support, language: "fr-CA")
        #expect(supportLabel != LabelKey.support.english)
        #expect(
            app.contains("<a href=\"../../../ca/fr/1641000103/support/\"><bdi>Lanternlight</bdi> – \(supportLabel)</a>")
        )
        let support = try SiteSamples.page(directory, "ca/fr/1641000103/support/index.html")
        #expect(!support.contains("<script>x"))
        // The Markdown's "# Help" sits under the page's one <h1>.
        #expect(support.contains("<h2>Help</h2>"))
        #expect(support.components(separatedBy: "<h1").count == 2)
        #expect(SiteSamples.alternates(support)["ja-JP"] == "https://example.com/apps/jp/1641000103/support/")
        #expect(directory.exists("site/us/1641000103/privacy/index.html"))
        #expect(
            (try SiteSamples.page(directory, "sitemap.xml")).contains(
                "<loc>https://example.com/apps/jp/1641000103/privacy/</loc>"))
    }

    @Test("a storefront in a diagnostic keeps its pages byte for byte")
    func keptInDiagnostic() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        let writer = SiteSamples.writer(directory)
        _ = writer.export(SiteSamples.rosters(), remembering: &memory)
        let page = try directory.read("site/jp/1641000103/index.html")
        var rosters = SiteSamples.rosters(harborPrint: [3], tagline: "Changed")
        rosters[1].content = .keepLastGood(revision: nil)
        rosters[1].fingerprint = nil
        _ = writer.export(rosters, remembering: &memory)
        #expect(try directory.read("site/jp/1641000103/index.html") == page)
        #expect(SiteSamples.alternates(try SiteSamples.page(directory, "us/1641000103/index.html"))["ja-JP"] != nil)
    }

    @Test("showcase.css starts with the widget's stylesheet, byte for byte")
    func stylesheet() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        _ = SiteSamples.writer(directory).export(SiteSamples.rosters(), remembering: &memory)
        let widget = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../../examples/web/showcase-widget.css"))
        let css = try directory.read("site/showcase.css")
        #expect(css.prefix(widget.count) == widget)
        #expect(css.count > widget.count)
    }
}

extension SiteWriterTests {
    @Test("a roster in a diagnostic that never showed apps (a host the storefront does not sell) freezes nothing")
    func diagnosticNeverSeen() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        let writer = SiteSamples.writer(directory)
        func rosters(_ tagline: String, print: Int) -> [ExportRoster] {
            var rosters = SiteSamples.rosters(harborPrint: [print], tagline: tagline)
            rosters[5] = ExportRoster(
                host: SiteSamples.lumen, storefront: Samples.jp, state: .failed, fetchedAt: nil,
                error: "host app not found", content: .keepLastGood(revision: nil))
            return rosters
        }
        _ = writer.export(rosters("First", print: 1), remembering: &memory)
        #expect(try SiteSamples.page(directory, "jp/1641000103/index.html").contains("First"))
        _ = writer.export(rosters("Second", print: 2), remembering: &memory)
        #expect(try SiteSamples.page(directory, "jp/1641000103/index.html").contains("Second"))
        #expect(try SiteSamples.page(directory, "jp/index.html").contains("Second"))
    }
}

extension SiteWriterTests {
    @Test("export.site removed: the site's files go, files it did not write stay")
    func siteRemoved() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        _ = SiteSamples.writer(directory).export(SiteSamples.rosters(), remembering: &memory)
        try directory.write("site/robots.txt", "User-agent: *")
        let report = ExportWriter(directory: directory.path).export(SiteSamples.rosters(), remembering: &memory)
        #expect(report.succeeded, "\(report.errors)")
        #expect(directory.files().filter { $0.hasPrefix("site/") } == ["site/robots.txt"])
        #expect(directory.exists("v1/index.json"))
    }
}

extension SiteWriterTests {
    @Test("a page in a right-to-left language says so on <html>; upstream text sits in isolates")
    func rightToLeft() throws {
        let directory = try TemporaryDirectory()
        var memory = ExportMemory(clock: WallClock())
        let sa = try Storefront(parsing: "sa")
        let rosters = [SiteSamples.roster(SiteSamples.harbor, sa, apps: SiteSamples.harborApps())]
        _ = SiteSamples.writer(directory).export(rosters, remembering: &memory)
        let page = try SiteSamples.page(directory, "sa/1641000103/index.html")
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"ar-SA\" dir=\"rtl\">"))
        #expect(page.contains("<h1><bdi>Lanternlight</bdi></h1>"))
        #expect(page.contains("<p class=\"showcase-secondary\" dir=\"auto\">Tides, lit</p>"))
        let us = try SiteSamples.page(directory, "sa/index.html")
        #expect(us.contains("<meta property=\"og:locale\" content=\"ar_SA\">"))
    }
}
