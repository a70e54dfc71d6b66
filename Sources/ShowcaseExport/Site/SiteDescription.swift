/// What `export.site` (SPEC §18) says about the site, as plain values: the daemon fills it from the configuration's
/// `SiteSettings`, so this module needs nothing of the configuration's types.
public struct SiteDescription: Sendable, Equatable {
    /// `export.site.url`: the absolute `https://` URL where `site/` is served, ending in `/`.
    public var url: String
    /// `export.site.title`; nil means the first developer's `artistName`.
    public var title: String?
    /// `export.site.pages`: each app's support and privacy Markdown, by `trackId`.
    public var pages: [Int: SiteTexts]

    /// A site served at `url` (a `/` is added when it lacks one).
    public init(url: String, title: String? = nil, pages: [Int: SiteTexts] = [:]) {
        self.url = url.hasSuffix("/") ? url : url + "/"
        self.title = title
        self.pages = pages
    }
}

/// One app's support and privacy pages, as Markdown text.
public struct SiteTexts: Sendable, Equatable {
    /// The support page's Markdown.
    public var support: String?
    /// The privacy policy's Markdown.
    public var privacy: String?

    /// Pages from their Markdown.
    public init(support: String? = nil, privacy: String? = nil) {
        self.support = support
        self.privacy = privacy
    }
}
