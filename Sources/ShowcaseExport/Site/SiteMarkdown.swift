/// The one place the site turns an app's support or privacy Markdown (`export.site.pages`) into HTML: cmark-gfm
/// through ``MarkdownHTML``, which removes raw HTML and unsafe links.
enum SiteMarkdown {
    /// `markdown` as HTML for a page's body: its headings one level under the page's own `<h1>` (`#` → `<h2>`).
    static func html(_ markdown: String) -> [UInt8] {
        Array(MarkdownHTML.render(markdown, headingShift: 1).utf8)
    }
}
