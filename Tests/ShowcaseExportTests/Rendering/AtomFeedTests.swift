import Foundation
import ShowcaseCore
import ShowcaseExport
import ShowcaseHistory
import Testing

@Suite("Atom feed")
struct AtomFeedTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func entry(
        _ serial: Int, _ kind: HistoryEntry.Kind, name: String = "Note Jar", platform: Platform = .ios,
        version: String? = nil, date: String? = nil, notes: String? = nil
    ) -> HistoryEntry {
        HistoryEntry(
            serial: serial, at: start.addingTimeInterval(Double(serial) * 3600), kind: kind, id: 100 + serial,
            name: name, platform: platform, storeUrl: "https://apps.apple.com/de/app/id\(100 + serial)?uo=4&pt=1",
            iconUrl: "https://is1-ssl.mzstatic.com/image/\(serial)/512x512bb.jpg", version: version,
            versionDate: date, releaseNotes: notes, formattedPrice: kind == .price ? "0,99 €" : nil,
            previousFormattedPrice: kind == .price ? "1,99 €" : nil)
    }

    static func feed(
        _ entries: [HistoryEntry], platform: Platform = .ios, language: String? = nil, isDefault: Bool = true,
        selfURL: String? = nil, artist: String? = "Example Developer"
    ) -> String {
        let feed = AtomFeed(
            host: "com.example.Host", storefront: try! Storefront(parsing: "de"), language: language,
            isDefaultLanguage: isDefault, platform: platform, artistName: artist, entries: entries,
            quietSince: start, selfURL: selfURL)
        return String(decoding: feed.rendered(), as: UTF8.self)
    }

    @Test("entries newest first with stable tag ids, a category per kind, versionDate as updated, notes as text")
    func entries() {
        let xml = Self.feed([
            Self.entry(1, .added),
            Self.entry(2, .updated, version: "2.1", date: "2026-12-01T08:00:00Z", notes: "Faster jars"),
            Self.entry(3, .price),
        ])
        let ids = xml.ranges(of: "<id>tag:showcased,2026:com.example.Host/de/").count
        #expect(ids == 4, "the feed's own id and one per entry")
        let three = xml.range(of: "com.example.Host/de/3</id>")!.lowerBound
        let two = xml.range(of: "com.example.Host/de/2</id>")!.lowerBound
        let one = xml.range(of: "com.example.Host/de/1</id>")!.lowerBound
        #expect(three < two && two < one, "newest first")
        #expect(xml.contains("<category term=\"updated\"/>"))
        #expect(xml.contains("<category term=\"price\"/>"))
        #expect(xml.contains("<category term=\"added\"/>"))
        #expect(xml.contains("<title type=\"text\">Note Jar 2.1</title>"))
        #expect(xml.contains("<updated>2026-12-01T08:00:00Z</updated>"))
        #expect(xml.contains("<content type=\"text\">Faster jars</content>"))
        #expect(xml.contains("<author><name>Example Developer</name></author>"))
        #expect(xml.contains("href=\"https://apps.apple.com/de/app/id102?uo=4&amp;pt=1\""))
        // The feed is as new as its newest entry (entry 3 was detected at start + 3 h, after 2026-12-01).
        #expect(
            xml.contains(
                "<updated>" + RFC3339.seconds(Self.start.addingTimeInterval(3 * 3600)) + "</updated>\n  <author>"))
    }

    @Test("only the document's platform; an empty feed is still a feed, updated at the baseline's time")
    func platformAndEmpty() {
        let mac = Self.entry(1, .added, platform: .macos)
        let xml = Self.feed([mac], platform: .ios)
        #expect(!xml.contains("<entry>"))
        #expect(xml.contains("<updated>\(RFC3339.seconds(Self.start))</updated>"))
        #expect(
            xml.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"de-DE\">"
            ))
        #expect(xml.hasSuffix("</feed>\n"))
        #expect(Self.feed([mac], platform: .macos).contains("<entry>"))
    }

    @Test("without a history baseline an empty feed's updated is the fetch time, which an overlay edit leaves alone")
    func quietWithoutBaseline() throws {
        let fetched = Self.start.addingTimeInterval(-86_400)
        let storefront = try Storefront(parsing: "de")
        let roster = ExportRoster(
            host: "com.example.Host", storefront: storefront, state: .fresh, fetchedAt: fetched,
            content: .absent)
        func feed(revisedAt: Date) -> String {
            let document = ExportDocument(
                host: "com.example.Host", storefront: storefront, platform: .ios, revision: 1, revisedAt: revisedAt,
                apps: [])
            let context = RenderContext(
                roster: roster, publicURL: "/showcase/v1/", documentPath: "com.example.Host/de/ios.json")
            return String(decoding: AtomFeedRenderer().render(document, in: context), as: UTF8.self)
        }
        // A tagline edit revises the document; the feed says nothing new, so its bytes stay.
        #expect(feed(revisedAt: Self.start) == feed(revisedAt: Self.start.addingTimeInterval(60)))
        #expect(feed(revisedAt: Self.start).contains("<updated>\(RFC3339.seconds(fetched))</updated>"))
    }

    @Test("a self link only with an absolute public_url")
    func selfLink() {
        #expect(!Self.feed([]).contains("rel=\"self\""))
        let url = "https://example.com/showcase/v1/com.example.Host/de/ios.atom"
        #expect(
            Self.feed([], selfURL: url).contains("<link rel=\"self\" type=\"application/atom+xml\" href=\"\(url)\"/>"))
    }

    @Test("a non-default language's entry ids carry the language; the default language's never do")
    func languageIds() {
        let entry = Self.entry(7, .added)
        #expect(Self.feed([entry], language: "fr", isDefault: false).contains("com.example.Host/de/fr/7</id>"))
        #expect(Self.feed([entry], language: "en", isDefault: true).contains("com.example.Host/de/7</id>"))
    }

    @Test("upstream text is escaped for XML and stripped of the characters XML 1.0 forbids")
    func escaping() {
        let hostile = Self.entry(
            1, .updated, name: "<script>alert('x')</script> & \"Co\"\u{1B}[2J", version: "1\u{0}.0",
            notes: "line\u{7}\nnext\u{FFFE}]]>")
        let xml = Self.feed([hostile], artist: "Dev <b>&amp;</b>")
        #expect(!xml.contains("<script>"))
        #expect(xml.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;[2J"))
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!xml.unicodeScalars.contains { $0.value == 0xFFFE })
        #expect(xml.contains("next]]&gt;</content>"))
        #expect(xml.contains("<name>Dev &lt;b&gt;&amp;amp;&lt;/b&gt;</name>"))
    }

    @Test("the same entries give the same bytes, whatever order they come in")
    func stable() {
        let entries = [Self.entry(1, .added), Self.entry(2, .removed)]
        #expect(Self.feed(entries) == Self.feed(entries.reversed()))
    }

    @Test(
        "a versionDate that is no real date, or more than a day after the detection, is dropped: the entry counts from its detection",
        arguments: [
            "0000-01-01T00:00:00Z", "2026-02-30T25:61:61Z", "9999-12-31T23:59:59Z", "-001-01-01T00:00:00Z", "",
            "2027-01-17T00:00:00Z",
        ])
    func impossibleDates(date: String) {
        let entry = Self.entry(1, .updated, version: "2.1", date: date)
        let xml = Self.feed([entry])
        let detected = RFC3339.seconds(entry.at)
        #expect(xml.components(separatedBy: "<updated>\(detected)</updated>").count == 3, "feed and entry: \(xml)")
        #expect(xml.ranges(of: "<updated>").count == 2)
    }

    @Test("a versionDate up to a day after the detection (a storefront a day ahead of UTC) is kept")
    func nearFutureDate() {
        let entry = Self.entry(1, .updated, version: "2.1", date: "2027-01-16T00:00:00Z")
        #expect(Self.feed([entry]).contains("<updated>2027-01-16T00:00:00Z</updated>"))
    }
}
