import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

/// SPEC §18: a support or privacy page's Markdown as HTML — CommonMark with GitHub tables, no raw HTML, nothing
/// that runs, no code point the HTML5 parser reports, within bounds.
@Suite("Markdown pages")
struct MarkdownHTMLTests {
    /// Parses `html` as an HTML5 fragment with html5lib in strict mode (Debian's python3-html5lib); nil when it
    /// parses without error, else the parser's message.
    func html5libError(_ html: String) throws -> String? {
        let file = NSTemporaryDirectory() + "showcase-markdown-\(UUID().uuidString).html"
        try Data(html.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let script = """
            import sys, html5lib
            parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
            try:
                parser.parseFragment(open(sys.argv[1], encoding="utf-8").read())
                print("ok")
            except html5lib.html5parser.ParseError as error:
                print("error:", error)
            """
        let output = try Tool.run("/usr/bin/python3", ["-c", script, file])
        let text = String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text == "ok" ? nil : text
    }

    @Test("a table's alignment is a style, not the obsolete align attribute")
    func tableAlignment() throws {
        let html = MarkdownHTML.render("| Plan | Price | Notes |\n|:--|--:|:-:|\n| Free | 0 | *all* |\n")
        #expect(html.contains(#"<th style="text-align: left">Plan</th>"#), "\(html)")
        #expect(html.contains(#"<td style="text-align: right">0</td>"#))
        #expect(html.contains(#"<td style="text-align: center"><em>all</em></td>"#))
        #expect(!html.contains("align="))
        #expect(try html5libError(html) == nil)
    }

    @Test("headings, lists, links and strikethrough render as CommonMark and GitHub do")
    func commonMark() throws {
        let html = MarkdownHTML.render(
            "# Support\n\nWrite to [us](mailto:help@example.com) or see [the FAQ](https://example.com/faq?a=1&b=2 \"FAQ\").\n\n"
                + "- one\n- ~~two~~\n\n1. [relative](../privacy/)\n2. [fragment](#top)\n")
        #expect(html.contains("<h1>Support</h1>"), "\(html)")
        #expect(html.contains(#"<a href="mailto:help@example.com">us</a>"#))
        #expect(html.contains(#"<a href="https://example.com/faq?a=1&amp;b=2" title="FAQ">the FAQ</a>"#))
        #expect(html.contains("<ul>\n<li>one</li>\n<li><del>two</del></li>\n</ul>"))
        #expect(html.contains(#"<li><a href="../privacy/">relative</a></li>"#))
        #expect(html.contains(##"<a href="#top">fragment</a>"##))
        #expect(try html5libError(html) == nil)
    }

    @Test("headings shift under a page's own <h1>: # → h2 … ##### → h6, ###### stays h6, setext too")
    func headingShift() {
        let markdown = "# One\n\n## Two\n\n##### Five\n\n###### Six\n\nSetext\n======\n"
        let html = MarkdownHTML.render(markdown, headingShift: 1)
        #expect(html == "<h2>One</h2>\n<h3>Two</h3>\n<h6>Five</h6>\n<h6>Six</h6>\n<h2>Setext</h2>\n", "\(html)")
        #expect(!MarkdownHTML.render(markdown).contains("<h2>One"))
        #expect(!String(decoding: SiteMarkdown.html("# Help"), as: UTF8.self).contains("<h1>"))
    }

    @Test("raw HTML is removed, not passed through and not left as a comment")
    func rawHTML() throws {
        let html = MarkdownHTML.render(
            "<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> and <b>bold</b>.\n\n"
                + "<div onclick=\"x()\">\n\nblock\n\n</div>\n\n<!-- a comment -->\n")
        #expect(!html.contains("<script") && !html.contains("alert") && !html.contains("<img"), "\(html)")
        #expect(!html.contains("onerror") && !html.contains("<b>") && !html.contains("<div") && !html.contains("<!--"))
        #expect(html.contains("<p>Text  and bold.</p>"))
        #expect(html.contains("<p>block</p>"))
        #expect(try html5libError(html) == nil)
    }

    @Test(
        "a link to javascript:, data: or another scheme keeps its text and loses the link",
        arguments: [
            "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
            "&#106;avascript:alert(1)", "data:text/html;base64,PHNjcmlwdD4=", "vbscript:x", "file:///etc/passwd",
            "http:example.com", "https://",
        ])
    func unsafeLink(url: String) throws {
        let html = MarkdownHTML.render("[click](<\(url)>) and <\(url)>\n")
        #expect(!html.contains("<a"), "\(html)")
        #expect(!html.contains("href"))
        #expect(html.hasPrefix("<p>click and "))
        #expect(try html5libError(html) == nil)
    }

    @Test("an image is shown as its description: no request to another host, no src left empty")
    func image() throws {
        let html = MarkdownHTML.render("![a *jar* of notes](https://tracker.example/pixel.png) ![x](javascript:1)\n")
        #expect(html == "<p>a <em>jar</em> of notes x</p>\n", "\(html)")
    }

    @Test("NUL, C0 and C1 controls and noncharacters are dropped, written raw or as character references")
    func controls() throws {
        let markdown =
            "A\u{1}\u{7}\u{7F}\u{85}\u{9F}\u{FFFE}B &#1; &#x80; &#xFDD0; &#0; [t](https://e.example/ \"t\u{2}\")\u{0}\n"
        let html = MarkdownHTML.render(markdown)
        #expect(!html.unicodeScalars.contains { HTMLText.isForbidden($0) }, "\(html.unicodeScalars.map(\.value))")
        #expect(html.hasPrefix("<p>AB"))
        #expect(try html5libError(html) == nil)
    }

    @Test("a document at the size bound renders, and a longer one is cut to it")
    func largeInput() throws {
        var row = "| a | b |\n|---|---|\n"
        while row.utf8.count < 8 * 1024 { row += "| \(row.utf8.count) | ~~x~~ [l](https://e.example/) |\n" }
        let section = "## Section\n\n" + row + "\nSome *prose* with `code` and **bold**.\n\n"
        var markdown = ""
        while markdown.utf8.count + section.utf8.count <= TextBound.markdownBytes { markdown += section }
        let html = MarkdownHTML.render(markdown)
        #expect(
            html.components(separatedBy: "<table>").count - 1 == markdown.components(separatedBy: "## Section").count
                - 1)
        #expect(try html5libError(html) == nil)
        let longer = MarkdownHTML.render(markdown + String(repeating: "tail ", count: 20_000))
        let tails = longer.components(separatedBy: "tail").count - 1
        #expect(tails > 0 && tails < 20_000, "\(tails)")
        #expect(longer.hasSuffix("…</p>\n"))
        #expect(longer.hasPrefix(html))
    }

    @Test("tables too wide for the bounds are read as text, not padded cell by cell")
    func tableBounds() throws {
        let wide =
            "|" + String(repeating: "x|", count: 256) + "\n|" + String(repeating: "-|", count: 256) + "\n"
            + String(repeating: "a\n", count: 1000)
        #expect(!MarkdownHTML.tablesFit(wide))
        #expect(!MarkdownHTML.render(wide).contains("<table>"))
        let pipes = "a|b\n-|-\n" + String(repeating: "|", count: 200) + "\n"
        #expect(!MarkdownHTML.tablesFit(pipes))
        let fine = "| a | b |\n| :-- | --: |\n| 1 | 2 |\n"
        #expect(MarkdownHTML.tablesFit(fine))
    }

    @Test(
        "the demo's support and privacy pages render with their tables and parse without error",
        arguments: [
            "support.md", "privacy.md",
        ])
    func demoPages(name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let markdown = try String(
            contentsOf: root.appendingPathComponent("Fixtures/demo/\(name)"), encoding: .utf8)
        let html = MarkdownHTML.render(markdown)
        #expect(html.hasPrefix("<h1>TideLog "), "\(html)")
        #expect(html.contains("<table>") && html.contains(#"style="text-align: "#))
        #expect(html.contains(#"<a href="mailto:"#))
        #expect(try html5libError(html) == nil)
    }

    @Test("renders the same from several threads at once (cmark-gfm keeps its extensions' characters in a global)")
    func concurrent() async {
        let markdown = "| a | b |\n|---|:-:|\n| ~~x~~ | y |\n\nSome ~~struck~~ text and more ~~words~~ here.\n"
        let expected = MarkdownHTML.render(markdown)
        #expect(expected.contains("<del>struck</del>") && expected.contains("<td><del>x</del></td>"))
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var count = 0
                    for _ in 0..<2000 where MarkdownHTML.render(markdown) != expected { count += 1 }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("allows http, https, mailto and scheme-less links only")
    func allowedLinks() {
        for url in [
            "https://example.com/", "HTTP://example.com", "mailto:a@b.example", "/privacy/", "#top", "", "a:b/c",
        ] {
            #expect(MarkdownHTML.isAllowedLink(url) == (url != "a:b/c"), "\(url)")
        }
        for url in ["javascript:x", "\u{1}javascript:x", "ja\nvascript:x", "data:x", "https:///x", "http://\\x/"] {
            #expect(!MarkdownHTML.isAllowedLink(url), "\(url)")
        }
    }
}
