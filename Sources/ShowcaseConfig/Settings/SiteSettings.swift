import ShowcaseCore

/// `export.site` (SPEC §18): a whole static site under `<export.directory>/site/` — a developer page per storefront
/// and language, a page per app, `sitemap.xml` and `showcase.css`. Absent, no site is written.
public struct SiteSettings: Sendable, Equatable {
    /// `export.site.url` — string, required: the absolute `https://` URL where `<export.directory>/site/` is served,
    /// with a host, no query, fragment or userinfo; stored ending in `/`. Canonical links, alternates, Open Graph
    /// and the sitemap use it.
    public var url: String
    /// `export.site.title` — string, optional, at most 255 characters (``TextBound/nameCharacters``); nil means the
    /// developer's `artistName`.
    public var title: String?
    /// `export.site.pages` — mapping, default empty: `{<trackId>: {support: FILE.md, privacy: FILE.md}}`, the
    /// support and privacy pages per app, each key optional. Paths are relative to the configuration file. Each file
    /// is read when the configuration is loaded (so an edit takes effect on `showcasectl reload`): a regular file of
    /// UTF-8 text, at most ``TextBound/markdownBytes`` (256 KiB), at most ``maximumPagesBytes`` in all; anything else
    /// is a configuration error at the path's line.
    public var pages: [Int: SitePages]

    /// A site section from its parts.
    public init(url: String, title: String? = nil, pages: [Int: SitePages] = [:]) {
        self.url = url
        self.title = title
        self.pages = pages
    }

    /// The most bytes of Markdown `export.site.pages` may read in all (16 MiB; a file named twice counts once), so a
    /// configuration listing thousands of large files cannot make a load hold gigabytes.
    public static let maximumPagesBytes = 16 << 20

    static let keys = ["url", "title", "pages"]
    static let pageKeys = ["support", "privacy"]

    /// Reads the section, its Markdown files included (relative to `base`, the configuration file); nil after
    /// reporting a missing or unusable `url` (mistakes in `title` and `pages` are reported and the site kept, so
    /// every mistake is reported at once).
    init?(reading node: YAMLNode, base: String, diagnostics: inout ConfigDiagnostics) {
        guard let fields = diagnostics.fields(of: node, in: "export.site", known: Self.keys) else { return nil }
        var title: String?
        if let value = fields["title"], let text = diagnostics.string(value, "export.site.title", expected: "a title") {
            if TextBound.fitsName(text) {
                title = text
            } else {
                diagnostics.report(
                    .invalidValue, at: value,
                    "'export.site.title' may have at most \(TextBound.nameCharacters) characters; "
                        + "leave it out to use the developer's name")
            }
        }
        var reader = MarkdownReader(base: base)
        let pages = fields["pages"].map { Self.pages($0, reader: &reader, diagnostics: &diagnostics) } ?? [:]
        guard let value = fields["url"] else {
            diagnostics.report(
                .missing, at: node,
                "'export.site' has no 'url'; add where <export.directory>/site/ is served, like: "
                    + "url: https://example.com/apps/ (or remove 'site' to write no site)")
            return nil
        }
        let key = "export.site.url"
        guard let text = diagnostics.string(value, key, expected: "an https URL like https://example.com/apps/") else {
            return nil
        }
        guard text.hasPrefix("https://") else {
            diagnostics.report(
                .invalidValue, at: value,
                "'\(key)' must be an absolute https URL like https://example.com/apps/, "
                    + "found '\(text.escapingControlCharacters())'")
            return nil
        }
        guard
            let url = ExportSettings.httpsURL(
                text, at: value, key: key, example: "https://example.com/apps/", diagnostics: &diagnostics)
        else { return nil }
        self.init(url: url, title: title, pages: pages)
    }

    /// `export.site.pages`: each key an app id, each value a mapping of `support` and `privacy` files, read.
    private static func pages(
        _ node: YAMLNode, reader: inout MarkdownReader, diagnostics: inout ConfigDiagnostics
    ) -> [Int: SitePages] {
        guard case .mapping(let entries) = node.content else {
            diagnostics.report(
                .typeMismatch, at: node,
                "expected a mapping like {1234567890: {support: support.md, privacy: privacy.md}} for "
                    + "'export.site.pages', found \(node.kindDescription)")
            return [:]
        }
        var pages: [Int: SitePages] = [:]
        var firstSeen: [Int: YAMLNode] = [:]
        for (key, value) in entries {
            guard let id = diagnostics.appID(key, "export.site.pages") else { continue }
            if let first = firstSeen[id] {
                diagnostics.report(
                    .duplicate, at: key,
                    "app \(id) is already in 'export.site.pages' at line \(first.location.line); list it once")
                continue
            }
            firstSeen[id] = key
            let path = "export.site.pages.\(id)"
            guard let fields = diagnostics.fields(of: value, in: path, known: pageKeys) else { continue }
            var entry = SitePages()
            if let file = fields["support"] {
                entry.support = reader.read(file, key: path + ".support", diagnostics: &diagnostics)
            }
            if let file = fields["privacy"] {
                entry.privacy = reader.read(file, key: path + ".privacy", diagnostics: &diagnostics)
            }
            pages[id] = entry
        }
        return pages
    }
}
