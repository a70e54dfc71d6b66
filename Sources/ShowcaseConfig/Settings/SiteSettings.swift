/// `export.site` (SPEC §18): a whole static site under `<export.directory>/site/` — a developer page per storefront
/// and language, a page per app, `sitemap.xml` and `showcase.css`. Absent, no site is written.
public struct SiteSettings: Sendable, Equatable {
    /// `export.site.url` — required: the absolute `https://` URL where `<export.directory>/site/` is served, stored
    /// ending in `/`; no query, fragment or userinfo. Canonical links, alternates, Open Graph and the sitemap use it.
    public var url: String
    /// `export.site.title` — optional; nil means the developer's `artistName`.
    public var title: String?
    /// `export.site.pages` — the support and privacy pages per app (`trackId`), read from Markdown files when the
    /// configuration is loaded (so an edit takes effect on `showcasectl reload`).
    public var pages: [Int: SitePages]

    /// A site section from its parts.
    public init(url: String, title: String? = nil, pages: [Int: SitePages] = [:]) {
        self.url = url
        self.title = title
        self.pages = pages
    }
}

/// One app's entry of `export.site.pages`: its support and privacy pages, each optional.
public struct SitePages: Sendable, Equatable {
    /// `support:` — the support page's Markdown.
    public var support: MarkdownSource?
    /// `privacy:` — the privacy policy's Markdown.
    public var privacy: MarkdownSource?

    /// Pages from their parts.
    public init(support: MarkdownSource? = nil, privacy: MarkdownSource? = nil) {
        self.support = support
        self.privacy = privacy
    }
}

/// A Markdown file named in the configuration, read when the configuration was loaded.
public struct MarkdownSource: Sendable, Equatable {
    /// The file's path as resolved (relative paths against the configuration file's folder).
    public var path: String
    /// The file's text (CommonMark with GitHub tables).
    public var text: String

    /// A source from its parts.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
