import CCmarkGFM
import Locking
import ShowcaseCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The HTML of a support or privacy page's Markdown (SPEC §18): CommonMark with GitHub's tables and
/// strikethrough, through the cmark-gfm C library, made safe to put inside a page the site writes.
///
/// The Markdown is the operator's file, but a page must still validate and carry nothing that runs: raw HTML
/// (blocks and inline tags) is removed from the parsed document rather than left as cmark's
/// `<!-- raw HTML omitted -->`; a link whose URL is not `http:`, `https:`, `mailto:` or scheme-less (relative,
/// `#fragment`) keeps its text and loses the link (no `javascript:`, `data:` or `href=""` left behind); an
/// image is shown as its description, since the site copies no files beside its pages and a page loads nothing
/// from another host. Table alignment is written as `style="text-align: …"` (the `align` attribute is obsolete
/// in HTML5). Code points HTML text must not carry (NUL, C0 controls but TAB/LF/CR, DEL, C1 controls,
/// noncharacters; SPEC §20), including those written as character references, are dropped from the result.
///
/// Bounds: the text is cut at ``TextBound/markdownBytes``. cmark-gfm 0.29.0.gfm.6 (Debian 12) pads every table
/// row to the header's width while parsing and scans each row's cells in quadratic time, so 256 KiB of pipes
/// could cost minutes and gigabytes; tables are therefore read only when no line has more than
/// ``maximumPipesPerLine`` `|` and the widest delimiter row times the number of lines stays within
/// ``maximumTableCells`` (otherwise their text is shown as paragraphs). The autolink extension is left out: its
/// address scanner is quadratic in that version.
public enum MarkdownHTML {
    /// The most `|` any line may have for tables to be read.
    public static let maximumPipesPerLine = 128
    /// The most table cells (the widest delimiter row's columns times the document's lines) for tables to be read.
    public static let maximumTableCells = 200_000

    /// The HTML of `markdown` (block elements, no surrounding document), as the type's documentation describes,
    /// each heading `headingShift` levels lower (1 under a page's own `<h1>`: `#` → `<h2>`), never past `<h6>`.
    /// Safe to call from any thread; renders run one at a time (see ``library``).
    public static func render(_ markdown: String, headingShift: Int = 0) -> String {
        var text = TextBound.capped(markdown, characters: .max, bytes: TextBound.markdownBytes)
        let tables = tablesFit(text)
        return library.withLock { extensions in
            let options = CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES
            guard let parser = cmark_parser_new(options) else { return "" }
            defer { cmark_parser_free(parser) }
            if tables, let table = extensions.table { cmark_parser_attach_syntax_extension(parser, table) }
            if let strikethrough = extensions.strikethrough {
                cmark_parser_attach_syntax_extension(parser, strikethrough)
            }
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
            }
            guard let document = cmark_parser_finish(parser) else { return "" }
            defer { cmark_node_free(document) }
            makeSafe(document, headingShift: headingShift)
            guard let html = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else {
                return ""
            }
            defer { free(html) }
            return HTMLText.stripped(String(cString: html))
        }
    }

    /// cmark-gfm, held by one render at a time: `cmark_parser_finish` adds its extensions' characters (`~`, `|`) to
    /// a table of special characters shared by every parser and removes them when done, so two parses at once
    /// could each miss the other's tables or strikethrough. The lock owns the registered extensions, so nothing
    /// reaches the library without it.
    private static let library = Lock(SyntaxExtensions.registered())

    /// Whether tables can be read within the bounds (see the type's documentation): counted on the text, before
    /// the parser could pad a row.
    static func tablesFit(_ text: String) -> Bool {
        var lines = 1
        var pipes = 0
        var widestDelimiterRow = 0
        // A delimiter row (`| :-- | --: |`) holds only these bytes; its columns are its runs of dashes.
        var delimiterOnly = true
        var dashRuns = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\n"):
                if delimiterOnly { widestDelimiterRow = max(widestDelimiterRow, dashRuns) }
                lines += 1
                pipes = 0
                delimiterOnly = true
                dashRuns = 0
            case UInt8(ascii: "|"):
                pipes += 1
                if pipes > maximumPipesPerLine { return false }
            case UInt8(ascii: "-"):
                if previous != UInt8(ascii: "-") { dashRuns += 1 }
            case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                delimiterOnly = false
            }
            previous = byte
        }
        if delimiterOnly { widestDelimiterRow = max(widestDelimiterRow, dashRuns) }
        return widestDelimiterRow.multipliedReportingOverflow(by: lines).partialValue <= maximumTableCells
    }

    /// Removes raw HTML, unwraps links whose URL is not allowed, replaces images by their description and moves
    /// headings `headingShift` levels down (at most to 6).
    private static func makeSafe(_ document: OpaquePointer, headingShift: Int) {
        var removed: [OpaquePointer] = []
        var unwrapped: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return }
        while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
            guard cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER,
                let node = cmark_iter_get_node(iterator)
            else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE: removed.append(node)
            case CMARK_NODE_IMAGE: unwrapped.append(node)
            case CMARK_NODE_HEADING:
                let level = Int(cmark_node_get_heading_level(node)) + max(0, min(headingShift, 5))
                cmark_node_set_heading_level(node, Int32(min(6, level)))
            case CMARK_NODE_LINK:
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                if !isAllowedLink(url) { unwrapped.append(node) }
            default: break
            }
        }
        cmark_iter_free(iterator)
        // Raw HTML nodes have no children; a link or image gives its children to its parent before it goes, so
        // no node freed here is still listed.
        for node in removed { cmark_node_free(node) }
        for node in unwrapped {
            while let child = cmark_node_first_child(node) {
                cmark_node_insert_before(node, child)
            }
            cmark_node_free(node)
        }
    }

    /// Whether a link may point at `url`: `http:` or `https:` with a host, `mailto:`, or no scheme at all
    /// (a relative URL or a fragment). Tested as a browser reads it: leading and trailing spaces and C0
    /// controls, and every tab and newline, ignored, the scheme in any case.
    static func isAllowedLink(_ url: String) -> Bool {
        let bytes = url.utf8.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard let start = bytes.firstIndex(where: { $0 > 0x20 }) else { return true }
        let trimmed = bytes[start...]
        guard let first = trimmed.first, isLetter(first),
            let colon = trimmed.firstIndex(where: { !(isLetter($0) || isDigit($0) || "+-.".utf8.contains($0)) }),
            trimmed[colon] == UInt8(ascii: ":")
        else {
            // No scheme: relative. A first segment with a colon after a non-scheme character is still relative.
            return true
        }
        let scheme = String(decoding: trimmed[..<colon], as: UTF8.self).lowercased()
        let rest = trimmed[(colon + 1)...]
        switch scheme {
        case "mailto": return true
        case "http", "https":
            guard rest.starts(with: "//".utf8) else { return false }
            let host = rest.dropFirst(2).prefix { !"/?#".utf8.contains($0) }
            return !host.isEmpty && host.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\\") }
        default: return false
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The two GitHub extensions used, registered once (``library``'s initializer runs exactly once; cmark-gfm's
    /// own registration is not thread-safe).
    private struct SyntaxExtensions: @unchecked Sendable {
        // @unchecked: the pointers name extensions the library never frees or changes after registration, and are
        // only used under ``library``'s lock.
        let table: OpaquePointer?
        let strikethrough: OpaquePointer?

        static func registered() -> SyntaxExtensions {
            cmark_gfm_core_extensions_ensure_registered()
            return SyntaxExtensions(
                table: cmark_find_syntax_extension("table"),
                strikethrough: cmark_find_syntax_extension("strikethrough"))
        }
    }
}
