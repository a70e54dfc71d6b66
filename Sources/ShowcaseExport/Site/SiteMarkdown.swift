/// The one place the site turns an app's support or privacy Markdown (`export.site.pages`) into HTML.
///
/// Until the cmark-gfm renderer lands (`MarkdownHTML`), the text is shown as it is, escaped, in a `<pre>`: readable,
/// and nothing in it can become markup.
enum SiteMarkdown {
    /// `markdown` as HTML for a page's body.
    static func html(_ markdown: String) -> [UInt8] {
        var text: [UInt8] = []
        HTMLText.element("<pre dir=\"auto\">", markdown, close: "</pre>\n", into: &text)
        return text
    }
}
