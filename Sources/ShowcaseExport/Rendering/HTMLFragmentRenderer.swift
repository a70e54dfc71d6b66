import ShowcaseCore

/// `<platform>.html` (SPEC §14): a document's roster as an HTML fragment to include as it is — a PHP include, an
/// nginx SSI, a static-site partial — with its schema.org structured data.
///
/// ```html
/// <section class="showcase" lang="fr-CA" [dir="rtl"] data-host="…" data-storefront="ca" data-platform="ios">
/// <ul class="showcase-apps">
/// <li class="showcase-app" data-app-id="…"><a class="showcase-link" href="storeUrl" aria-label="Name, App Store">
///   <img class="showcase-icon" src="…" alt="" width="64" height="64" loading="lazy"><span class="showcase-text">
///   <span class="showcase-name"><bdi>…</bdi></span><span class="showcase-tagline"><bdi>…</bdi></span>
///   <span class="showcase-meta"><span class="showcase-price"><bdi>…</bdi></span>
///   <span class="showcase-badge">App Store</span></span></span></a></li>
/// </ul>
/// <script type="application/ld+json">{"@type": "ItemList", …}</script>
/// </section>
/// ```
///
/// One link per row wraps everything, so the whole row is the touch target and a screen reader hears one name
/// per app ("Name, App Store"); examples/web/showcase-widget.js builds the same markup, so one stylesheet serves
/// both. The icon is the mirrored one through `export.public_url` when the document has it (the smallest size
/// that fills 64 px, and a 2× one for `srcset`), else Apple's `iconUrl`. A roster with no app to show renders
/// nothing at all: an include of the empty file shows nothing, not an empty box.
///
/// Direction (SPEC §19): a document in a language written right to left (ar, he, fa, ur) says so with
/// `dir="rtl"` on the section, and every text from upstream or the overlay — name, tagline, price — is the only
/// content of a `<bdi>`, a bidi isolate: its own direction comes from its first strong character, and no control
/// inside it (a U+202E in a name) reaches the price or badge after it. The isolate sits inside the line's span
/// rather than being it: the span keeps the block's direction, so a Latin name in an Arabic list still aligns to
/// the right with the rest (a `dir="auto"` span would align it left). The link's accessible name is
/// ``LabelKey/appLink`` in the document's language.
public struct HTMLFragmentRenderer: DocumentRenderer {
    /// The file beside `<platform>.json`: `<platform>.html`.
    public static let suffix = ".html"
    /// The icon's display size in CSS pixels (showcase-widget.css sizes it the same).
    static let iconSize = 64

    /// Where the tree is served, for mirrored icons.
    public var tree: PublicTree
    /// The words the fragment writes itself (each row's accessible name).
    public var labels: Labels

    /// ``suffix``, as the writer asks for it.
    public var suffix: String { Self.suffix }

    /// A renderer linking mirrored icons under `tree`, writing `labels`.
    public init(tree: PublicTree = .standard, labels: Labels = .builtIn) {
        self.tree = tree
        self.labels = labels
    }

    /// The file for `document` in the tree `context` names (its `export.public_url`), with its roster's labels.
    public func render(_ document: ExportDocument, in context: RenderContext) -> [UInt8] {
        Self(tree: PublicTree(context), labels: context.roster.labels).render(document)
    }

    /// The fragment of `document`; empty when it has no app with a safe store link.
    public func render(_ document: ExportDocument) -> [UInt8] {
        render(document, listings: document.apps.map { WebListing($0, on: .html) })
    }

    /// The fragment of `document` showing `listings` (its apps as rows).
    func render(_ document: ExportDocument, listings: [WebListing]) -> [UInt8] {
        let rows = listings.filter { tree.link($0.storeUrl) != nil }
        guard !rows.isEmpty else { return [] }
        var text: [UInt8] = []
        text.reserveCapacity(rows.count * 1200 + 512)
        HTMLText.markup("<section class=\"showcase\"", into: &text)
        let language = document.webLanguage
        HTMLText.attribute("lang", language, into: &text)
        if Labels.isRightToLeft(language) { HTMLText.markup(" dir=\"rtl\"", into: &text) }
        HTMLText.attribute("data-host", document.host, into: &text)
        HTMLText.attribute("data-storefront", document.storefront.code, into: &text)
        HTMLText.attribute("data-platform", document.platform.rawValue, into: &text)
        HTMLText.markup(">\n<ul class=\"showcase-apps\">\n", into: &text)
        let linkLabel = labels.template(.appLink, language: language)
        for row in rows { write(row, linkLabel: linkLabel, into: &text) }
        HTMLText.markup("</ul>\n<script type=\"application/ld+json\">\n", into: &text)
        HTMLText.scriptSafeJSON(StructuredData.itemList(rows, platform: document.platform, tree: tree), into: &text)
        HTMLText.markup("\n</script>\n</section>\n", into: &text)
        return text
    }

    /// Appends one row: its `<li>` and the one link wrapping icon, name, tagline, price and badge, named by
    /// `linkLabel` (the `app_link` label of the row's language).
    func write(_ row: WebListing, linkLabel: String, into text: inout [UInt8]) {
        HTMLText.markup("<li class=\"showcase-app\"", into: &text)
        HTMLText.attribute("data-app-id", String(row.id), into: &text)
        HTMLText.markup("><a class=\"showcase-link\"", into: &text)
        HTMLText.attribute("href", row.storeUrl, into: &text)
        HTMLText.attribute("aria-label", row.accessibleName(linkLabel), into: &text)
        HTMLText.markup(">", into: &text)
        if let icon = icon(of: row) {
            HTMLText.markup("<img class=\"showcase-icon\"", into: &text)
            HTMLText.attribute("src", icon.src, into: &text)
            if let srcset = icon.srcset { HTMLText.attribute("srcset", srcset, into: &text) }
            HTMLText.markup(" alt=\"\" width=\"64\" height=\"64\" loading=\"lazy\">", into: &text)
        }
        HTMLText.element(
            "<span class=\"showcase-text\"><span class=\"showcase-name\"><bdi>", row.name, close: "</bdi></span>",
            into: &text)
        if let tagline = row.shownTagline {
            HTMLText.element("<span class=\"showcase-tagline\"><bdi>", tagline, close: "</bdi></span>", into: &text)
        }
        HTMLText.markup("<span class=\"showcase-meta\">", into: &text)
        if let price = row.formattedPrice, !price.isEmpty {
            HTMLText.element("<span class=\"showcase-price\"><bdi>", price, close: "</bdi></span>", into: &text)
        }
        HTMLText.element("<span class=\"showcase-badge\">", row.storeLabel, close: "</span>", into: &text)
        HTMLText.markup("</span></span></a></li>\n", into: &text)
    }

    /// The row's `src` and `srcset`: mirrored sizes under the public URL, else Apple's icon, else none.
    func icon(of row: WebListing) -> (src: String, srcset: String?)? {
        if let choice = IconChoice(sizes: row.icons.keys, display: Self.iconSize),
            let standard = row.icons[choice.standard].flatMap(tree.file)
        {
            guard let retinaSize = choice.retina, let retina = row.icons[retinaSize].flatMap(tree.file),
                !(standard + retina).contains(where: { $0 == "," || $0.isWhitespace })
            else { return (standard, nil) }
            return (standard, "\(standard) 1x, \(retina) 2x")
        }
        return tree.link(row.iconUrl).map { ($0, nil) }
    }
}
