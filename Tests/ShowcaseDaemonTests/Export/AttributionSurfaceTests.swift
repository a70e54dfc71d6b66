import Foundation
import Testing

/// SPEC §19 "Attribution per surface" through the binary: each surface's store links carry that surface's campaign
/// token and the app's product page, and a reload that changes one surface's token rewrites that surface's files
/// only.
@Suite("Attribution per surface", .serialized)
struct AttributionSurfaceTests {
    static let lanternlight = 1_641_000_103
    static let everywhere = "45812c9b-c296-43d3-b6a0-7a6b2f5d9e1c"
    static let emailPage = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"

    /// The `attribution:` section with a token per surface, the email's `email`.
    static func attribution(email: String) -> String {
        """
        attribution:
          provider_token: "1234567"
          campaign_token: shared
          campaign_tokens: {varlink: app, json: widget, html: website, email: \(email), feed: atom, site: pages}

        """
    }

    /// A warm daemon keeping `us`, exporting documents, fragments, email variants and feeds, with Lanternlight
    /// repriced after the first fetch (a change for the feeds) and its product pages in the overlay.
    func bed(email: String = "newsletter") throws -> TestBed {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.extra =
            "export:\n  directory: \(bed.exportDirectory.path)\n  gzip: false\n  html: true\n  feed: true\n"
            + "  site: {url: \"https://example.com/apps/\"}\n"
            + Self.attribution(email: email)
        try bed.writeOverlay(
            "product_pages:\n  \(Self.lanternlight): {default: \(Self.everywhere), email: \(Self.emailPage)}\n")
        try bed.start(environment: ["STATE_DIRECTORY": bed.directory.appendingPathComponent("state").path])
        try bed.waitUntilWarm()
        #expect(try bed.refresh("us").error == nil)
        var body = try bed.fixtureRoster("us")
        var results = body["results"] as! [[String: Any]]
        for index in results.indices where (results[index]["trackId"] as? NSNumber)?.intValue == Self.lanternlight {
            results[index]["price"] = 1.99
            results[index]["formattedPrice"] = "$1.99"
        }
        body["results"] = results
        try bed.overrideRoster("us", body)
        #expect(try bed.refresh("us").error == nil)
        #expect(try bed.export().error == nil)
        return bed
    }

    /// The store links in `text` (`href`s and JSON/XML `url`s of apps.apple.com), `&amp;` read as `&`.
    func storeLinks(_ text: String) -> [String] {
        let plain = text.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "\\u0026", with: "&")
            .replacingOccurrences(of: "\\/", with: "/")
        var links: [String] = []
        var rest = plain[...]
        while let start = rest.range(of: "https://apps.apple.com/") {
            let tail = rest[start.lowerBound...]
            let end = tail.firstIndex { "\"'<> ".contains($0) } ?? tail.endIndex
            links.append(String(tail[..<end]))
            rest = tail[end...]
        }
        return links
    }

    /// Every store link of `links` carries `ct=<token>`, Lanternlight's `ppid=<page>` and the others none.
    func expectLinks(_ links: [String], token: String, page: String, _ what: String) {
        #expect(!links.isEmpty, "\(what) has no store link")
        for link in links {
            #expect(link.contains("&ct=\(token)&"), "\(what): \(link)")
            if link.contains("/id\(Self.lanternlight)") {
                #expect(link.hasSuffix("&ppid=\(page)"), "\(what): \(link)")
            } else {
                #expect(!link.contains("ppid="), "\(what): \(link)")
            }
        }
    }

    @Test("every surface's store links carry its own campaign token and the app's product page")
    func eachSurface() throws {
        let bed = try bed()
        let host = TestBed.knotbook
        // Varlink: Get, GetApp, Watch, Changes.
        let get = try bed.get("us")
        expectLinks(get.apps.compactMap { $0["storeUrl"] as? String }, token: "app", page: Self.everywhere, "Get")
        #expect(get.apps.contains { ($0["storeUrl"] as? String)?.contains("ppid=") == true })
        let app = try bed.client().call("io.showcase.Roster.GetApp", ["storefront": "us", "id": Self.lanternlight])
        let appUrl = (app["app"] as? [String: Any])?["storeUrl"] as? String
        expectLinks([appUrl ?? ""], token: "app", page: Self.everywhere, "GetApp")
        let watcher = try bed.client()
        let watched = try watcher.call("io.showcase.Roster.Watch", ["storefront": "us"], more: true)
        expectLinks(watched.apps.compactMap { $0["storeUrl"] as? String }, token: "app", page: Self.everywhere, "Watch")
        let changes = try bed.client().call("io.showcase.Roster.Changes", ["storefront": "us"])
        let changed = (changes["changes"] as? [[String: Any]] ?? []).compactMap { $0["storeUrl"] as? String }
        expectLinks(changed, token: "app", page: Self.everywhere, "Changes")
        // The export: documents (and so the widget), fragments, email variants, feeds.
        let read = { (file: String) in try String(contentsOf: bed.exported("\(host)/us/\(file)"), encoding: .utf8) }
        expectLinks(storeLinks(try read("ios.json")), token: "widget", page: Self.everywhere, "ios.json")
        expectLinks(storeLinks(try read("ios.html")), token: "website", page: Self.everywhere, "ios.html")
        expectLinks(storeLinks(try read("ios.email.html")), token: "newsletter", page: Self.emailPage, "ios.email.html")
        expectLinks(storeLinks(try read("ios.atom")), token: "atom", page: Self.everywhere, "ios.atom")
        // The site: the developer page's ItemList and every app page's store link and JSON-LD.
        let site = { (page: String) in
            try String(contentsOf: bed.exportDirectory.appendingPathComponent("site/us/" + page), encoding: .utf8)
        }
        for page in ["index.html", "\(Self.lanternlight)/index.html", "1641000105/index.html"] {
            expectLinks(storeLinks(try site(page)), token: "pages", page: Self.everywhere, "site/us/\(page)")
        }
        // Only store URLs are attributed: every `ct=` of a file is one of its store links' (no icon, no feed link).
        for file in ["ios.json", "ios.html", "ios.email.html", "ios.atom"] {
            let text = try read(file).replacingOccurrences(of: "&amp;", with: "&")
            #expect(text.components(separatedBy: "ct=").count - 1 == storeLinks(text).count, "\(file)")
        }
    }

    @Test("a reload changing the email's token rewrites the email variants only")
    func reloadRewritesOneSurface() throws {
        let bed = try bed()
        try bed.ageExportedFiles()
        let sitePages = try siteModificationTimes(bed)
        #expect(!sitePages.isEmpty)
        bed.extra = bed.extra.replacingOccurrences(
            of: Self.attribution(email: "newsletter"), with: Self.attribution(email: "december"))
        #expect(try bed.reload().int("generation") == 2)
        let email = "\(TestBed.knotbook)/us/ios.email.html"
        do {
            try waitFor(timeout: .seconds(20)) {
                (try? String(contentsOf: bed.exported(email), encoding: .utf8))?.contains("ct=december") == true
            }
        } catch { throw HarnessError("the new token never reached \(email): \(bed.daemon?.log ?? "")") }
        // The reload's pass may still be renaming its last files: an Admin.Export pass starts only after it ends.
        #expect(try bed.export().int("written") == 0)
        // Only the email variants: every document, fragment, feed, index.json and the manifest keep their mtime.
        #expect(try bed.rewrittenFiles() == [email, "\(TestBed.knotbook)/us/macos.email.html"])
        // The site links with its own token: not one of its files is written again.
        #expect(try siteModificationTimes(bed) == sitePages)
    }

    /// Every file under the export's `site/` with its modification time.
    func siteModificationTimes(_ bed: TestBed) throws -> [String: Date] {
        let base = bed.exportDirectory.appendingPathComponent("site").path
        var times: [String: Date] = [:]
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let next = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: base + "/" + next)
            if attributes[.type] as? FileAttributeType == .typeRegular {
                times[next] = attributes[.modificationDate] as? Date
            }
        }
        return times
    }
}
