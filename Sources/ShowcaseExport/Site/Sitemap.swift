import FoundationEssentials
import ShowcaseCore

/// `site/sitemap.xml` (SPEC §18, the sitemaps.org protocol): every page's URL with `lastmod` — when its file last
/// changed, which is when its content did, since a page is written only when its bytes change — and its language
/// alternates as `xhtml:link rel="alternate" hreflang` (itself and `x-default` included, as search engines ask).
/// More URLs than ``limit``, or more bytes than ``byteLimit``, make `sitemap.xml` an index of `sitemap-1.xml`,
/// `sitemap-2.xml`, … — with every page's alternates a file grows fast (173 storefronts: ~17 KB a URL), and the
/// protocol takes no file over 50 MB.
struct Sitemap {
    /// One page's entry.
    struct Entry {
        /// Its absolute URL.
        var url: String
        /// When its file last changed.
        var modified: Date
        /// Its alternates as `xhtml:link` elements, escaped (``Sitemap/links(_:)``): the same for every page of a
        /// kind, so a writer builds them once for all of them.
        var links: [UInt8]

        /// An entry whose alternates are already `xhtml:link` elements.
        init(url: String, modified: Date, links: [UInt8]) {
            self.url = url
            self.modified = modified
            self.links = links
        }

        /// An entry with `alternates`: (hreflang, URL) of every edition the page exists in, then `x-default`.
        init(url: String, modified: Date, alternates: [(language: String, url: String)]) {
            self.init(url: url, modified: modified, links: Sitemap.links(alternates))
        }
    }

    /// `alternates` — (hreflang, URL) pairs — as the `xhtml:link rel="alternate"` elements of a `<url>`.
    static func links(_ alternates: [(language: String, url: String)]) -> [UInt8] {
        var text = ""
        for alternate in alternates {
            text += "<xhtml:link rel=\"alternate\" hreflang=\"\(XMLText.escaped(alternate.language))\" "
            text += "href=\"\(XMLText.escaped(alternate.url))\"/>"
        }
        return Array(text.utf8)
    }

    /// The protocol's limit of URLs per file.
    static let standardLimit = 50_000
    /// The protocol's limit of bytes per file, uncompressed (50 MiB).
    static let standardByteLimit = 52_428_800

    /// `export.site.url`, ending in `/`.
    var siteURL: String
    /// URLs per file; more make an index.
    var limit = Sitemap.standardLimit
    /// Bytes per file; more make an index (a single URL larger than this still gets a file of its own).
    var byteLimit = Sitemap.standardByteLimit

    /// One sitemap file of URLs, and its newest page's `lastmod`.
    typealias Part = (bytes: [UInt8], modified: Date?)

    /// Builds the parts one URL at a time, handing each over as soon as it is full: a site's sitemap is never held
    /// whole, only the part being filled.
    struct Builder {
        let sitemap: Sitemap
        private var part: [UInt8] = []
        private var count = 0
        private var modified: Date?

        init(_ sitemap: Sitemap) { self.sitemap = sitemap }

        /// Whether the part being filled has no URL yet.
        var isEmpty: Bool { count == 0 }

        private static let head =
            Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
            + Array(
                "\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n"
                    .utf8)
        private static let tail = Array("</urlset>\n".utf8)

        /// Adds `entry`; the part it did not fit in, when that is full.
        mutating func add(_ entry: Entry) -> Part? {
            let bytes = sitemap.url(entry)
            var full: Part?
            if count > 0,
                count == max(1, sitemap.limit) || part.count + bytes.count + Self.tail.count > sitemap.byteLimit
            {
                full = finish()
            }
            if part.isEmpty { part = Self.head }
            part += bytes
            count += 1
            modified = max(modified ?? entry.modified, entry.modified)
            return full
        }

        /// The part being filled, closed (an empty urlset when nothing was added), and a fresh one begun.
        mutating func finish() -> Part {
            let done = ((part.isEmpty ? Self.head : part) + Self.tail, modified)
            (part, count, modified) = ([], 0, nil)
            return done
        }
    }

    /// The index of the parts `names`, each with its newest page's `lastmod` (`indexModified` for an empty one).
    func index(_ parts: [(name: String, modified: Date?)], indexModified: Date) -> [UInt8] {
        var index = Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
        index += Array("\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8)
        for part in parts {
            index += Array("<sitemap><loc>\(XMLText.escaped(siteURL + part.name))</loc>".utf8)
            index += Array("<lastmod>\(RFC3339.seconds(part.modified ?? indexModified))</lastmod></sitemap>\n".utf8)
        }
        index += Array("</sitemapindex>\n".utf8)
        return index
    }

    /// The files, by name under `site/`: `sitemap.xml` alone, or the index and its parts.
    func files(_ entries: [Entry], indexModified: Date) -> [(name: String, bytes: [UInt8])] {
        var builder = Builder(self)
        var parts = entries.compactMap { builder.add($0) }
        parts.append(builder.finish())
        guard parts.count > 1 else { return [("sitemap.xml", parts[0].bytes)] }
        let names = parts.indices.map { "sitemap-\($0 + 1).xml" }
        return [
            ("sitemap.xml", index(zip(names, parts.map(\.modified)).map { ($0, $1) }, indexModified: indexModified))
        ]
            + zip(names, parts.map(\.bytes)).map { ($0, $1) }
    }

    /// One entry's `<url>` element.
    fileprivate func url(_ entry: Entry) -> [UInt8] {
        let head = "<url><loc>\(XMLText.escaped(entry.url))</loc><lastmod>\(RFC3339.seconds(entry.modified))</lastmod>"
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.utf8.count + entry.links.count + 7)
        bytes += head.utf8
        bytes += entry.links
        bytes += "</url>\n".utf8
        return bytes
    }
}
