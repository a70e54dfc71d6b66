/// The one place the site turns an app's support or privacy Markdown (`export.site.pages`) into HTML: cmark-gfm
/// through ``MarkdownHTML``, which removes raw HTML and unsafe links.
enum SiteMarkdown {
    /// `markdown` as HTML for a page's body.
    static func html(_ markdown: String) -> [UInt8] {
        Array(MarkdownHTML.render(markdown).utf8)
    }
}
