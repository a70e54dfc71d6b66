import FoundationEssentials
import ShowcaseCore

/// `site/sitemap.xml` (SPEC §18, the sitemaps.org protocol): every page's URL with `lastmod` — when its file last
/// changed, which is when its content did, since a page is written only when its bytes change — and its language
/// alternates as `xhtml:link rel="alternate" hreflang` (itself and `x-default` included, as search engines ask).
/// More URLs than ``limit`` make `sitemap.xml` an index of `sitemap-1.xml`, `sitemap-2.xml`, ….
struct Sitemap {
    /// One page's entry.
    struct Entry {
        /// Its absolute URL.
        var url: String
        /// When its file last changed.
        var modified: Date
        /// (hreflang, URL) of every edition the page exists in, then `x-default`.
        var alternates: [(language: String, url: String)]
    }

    /// The protocol's limit of URLs per file.
    static let standardLimit = 50_000

    /// `export.site.url`, ending in `/`.
    var siteURL: String
    /// URLs per file; more make an index.
    var limit = Sitemap.standardLimit

    /// The files, by name under `site/`: `sitemap.xml` alone, or the index and its parts.
    func files(_ entries: [Entry], indexModified: Date) -> [(name: String, bytes: [UInt8])] {
        let limit = max(1, self.limit)
        guard entries.count > limit else { return [("sitemap.xml", urlset(entries[...]))] }
        var files: [(name: String, bytes: [UInt8])] = []
        var index = Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
        index += Array("\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8)
        for (number, start) in stride(from: 0, to: entries.count, by: limit).enumerated() {
            let part = entries[start..<min(start + limit, entries.count)]
            let name = "sitemap-\(number + 1).xml"
            files.append((name, urlset(part)))
            let modified = part.map(\.modified).max() ?? indexModified
            index += Array("<sitemap><loc>\(XMLText.escaped(siteURL + name))</loc>".utf8)
            index += Array("<lastmod>\(RFC3339.seconds(modified))</lastmod></sitemap>\n".utf8)
        }
        index += Array("</sitemapindex>\n".utf8)
        return [("sitemap.xml", index)] + files
    }

    /// One `urlset` of `entries`.
    private func urlset(_ entries: ArraySlice<Entry>) -> [UInt8] {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text += "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
        text += "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n"
        for entry in entries {
            text += "<url><loc>\(XMLText.escaped(entry.url))</loc><lastmod>\(RFC3339.seconds(entry.modified))</lastmod>"
            for alternate in entry.alternates {
                text += "<xhtml:link rel=\"alternate\" hreflang=\"\(XMLText.escaped(alternate.language))\" "
                text += "href=\"\(XMLText.escaped(alternate.url))\"/>"
            }
            text += "</url>\n"
        }
        text += "</urlset>\n"
        return Array(text.utf8)
    }
}
