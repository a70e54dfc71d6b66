import ShowcaseCore

/// The frame every site page shares (SPEC §18): a complete HTML5 document without JavaScript — `<html lang>` (and
/// `dir="rtl"` for a right-to-left language), `<title>`, the description, the canonical URL under `site.url`, a
/// reciprocal `hreflang` alternate for every edition the same page exists in plus `x-default`, Open Graph, the one
/// stylesheet, and the storefront switcher; the page's own content goes in its `<main>`.
struct SitePageFrame {
    /// What a page puts in its `<head>` besides what every page has.
    struct Head {
        /// `<title>` and `og:title`.
        var title: String
        /// `<meta name="description">`.
        var description: String
        /// `og:image`: an absolute URL, when the page has an icon to show.
        var image: String?
        /// The Smart App Banner's `app-id` (an iOS app's page only).
        var banner: Int?
        /// A JSON-LD object for the head (an app page's `SoftwareApplication`).
        var structuredData: [UInt8]?
    }

    /// `export.site.url`, ending in `/`.
    var siteURL: String
    /// The words the site writes itself.
    var labels: Labels
    /// Where the switcher's country names in the page's language come from.
    var regionNames: SiteRegionNames = .system
    /// What the pass's pages share: looked up or built once, not once a page.
    let memo = Memo()

    /// What every page of one pass shares and would otherwise be worked out again for each of thousands of pages:
    /// label templates and country names per language, and each kind of page's alternates (one kind of page
    /// exists in the same editions all through a pass). A frame is made for one pass and used on its one thread.
    final class Memo {
        /// Language tag → key → template.
        var templates: [String: [LabelKey: String]] = [:]
        /// Language tag → storefront code → the country's name in that language.
        var countries: [String: [String: String]] = [:]
        /// Language tag → whether it is written right to left.
        var rightToLeft: [String: Bool] = [:]
        /// Kind of page → its `hreflang` alternates and `x-default`, as the head carries them.
        var alternates: [SitePageKind: [UInt8]] = [:]
        /// Kind of page → the storefronts it exists in with more than one edition (the switcher names their
        /// languages).
        var multilingual: [SitePageKind: Set<Storefront>] = [:]
    }

    /// `key`'s template in `language` (``Labels/template(_:language:)``), looked up once a pass.
    func template(_ key: LabelKey, language: String) -> String {
        if let known = memo.templates[language]?[key] { return known }
        let found = labels.template(key, language: language)
        memo.templates[language, default: [:]][key] = found
        return found
    }

    /// `key`'s text in `language` with `values` filled (``Labels/text(_:language:_:)``).
    func text(_ key: LabelKey, language: String, _ values: [String: String] = [:]) -> String {
        values.isEmpty ? template(key, language: language) : LabelText.filled(template(key, language: language), values)
    }

    /// Whether `language` is written right to left (``Labels/isRightToLeft(_:)``), looked up once a pass.
    func isRightToLeft(_ language: String) -> Bool {
        if let known = memo.rightToLeft[language] { return known }
        let found = Labels.isRightToLeft(language)
        memo.rightToLeft[language] = found
        return found
    }

    /// `storefront`'s country name in `language` (``SiteRegionNames/country(_:language:)``), looked up once a pass.
    func country(_ storefront: Storefront, language: String) -> String {
        if let known = memo.countries[language]?[storefront.code] { return known }
        let found = regionNames.country(storefront, language: language)
        memo.countries[language, default: [:]][storefront.code] = found
        return found
    }

    /// The absolute URL of `page`.
    func url(of page: SitePage) -> String { siteURL + page.directory }

    /// The whole document of `page`, which exists in `editions` (configuration order, `page`'s own among them).
    func document(_ page: SitePage, in editions: [SiteEdition], head: Head, main: [UInt8]) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(main.count + 4096)
        let tag = page.edition.tag
        HTMLText.markup("<!DOCTYPE html>\n<html", into: &text)
        HTMLText.attribute("lang", tag, into: &text)
        if isRightToLeft(tag) { HTMLText.markup(" dir=\"rtl\"", into: &text) }
        HTMLText.markup(">\n<head>\n<meta charset=\"utf-8\">\n", into: &text)
        HTMLText.markup("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", into: &text)
        HTMLText.element("<title>", head.title, close: "</title>\n", into: &text)
        meta(name: "description", head.description, into: &text)
        link("canonical", url(of: page), into: &text)
        text += alternates(of: page.kind, in: editions)
        property("og:title", head.title, into: &text)
        property("og:type", "website", into: &text)
        property("og:url", url(of: page), into: &text)
        property("og:locale", page.edition.openGraphLocale, into: &text)
        if let image = head.image { property("og:image", image, into: &text) }
        if let banner = head.banner, banner > 0 { meta(name: "apple-itunes-app", "app-id=\(banner)", into: &text) }
        link("stylesheet", page.link(to: SiteStylesheet.fileName), into: &text)
        if let data = head.structuredData {
            HTMLText.markup("<script type=\"application/ld+json\">\n", into: &text)
            HTMLText.scriptSafeJSON(data, into: &text)
            HTMLText.markup("\n</script>\n", into: &text)
        }
        HTMLText.markup("</head>\n<body class=\"showcase-site\">\n<main class=\"showcase-page\">\n", into: &text)
        text.append(contentsOf: main)
        HTMLText.markup("</main>\n", into: &text)
        switcher(page, in: editions, into: &text)
        HTMLText.markup("</body>\n</html>\n", into: &text)
        return text
    }

    /// The `hreflang` alternates of `kind`'s pages, which exist in `editions`, then `x-default`: the same for
    /// every page of the kind, so built once a pass.
    private func alternates(of kind: SitePageKind, in editions: [SiteEdition]) -> [UInt8] {
        if let known = memo.alternates[kind] { return known }
        var text: [UInt8] = []
        for edition in editions {
            alternate(edition.tag, url(of: SitePage(kind: kind, edition: edition)), into: &text)
        }
        if let first = editions.first {
            alternate("x-default", url(of: SitePage(kind: kind, edition: first)), into: &text)
        }
        memo.alternates[kind] = text
        return text
    }

    /// The storefronts among `editions` with more than one edition, once a pass for each kind of page.
    private func multilingualStorefronts(of kind: SitePageKind, in editions: [SiteEdition]) -> Set<Storefront> {
        if let known = memo.multilingual[kind] { return known }
        var seen = Set<Storefront>()
        var repeated = Set<Storefront>()
        for edition in editions where !seen.insert(edition.storefront).inserted { repeated.insert(edition.storefront) }
        memo.multilingual[kind] = repeated
        return repeated
    }

    /// The storefront switcher: the same page in every other edition it exists in, each named in the page's own
    /// language (SPEC §19) — the country (`États-Unis`), and for a storefront with several editions the edition's
    /// language by its own name, marked as that language (`Canada – <span lang="en">English</span>`).
    private func switcher(_ page: SitePage, in editions: [SiteEdition], into text: inout [UInt8]) {
        let others = editions.filter { $0 != page.edition }
        guard !others.isEmpty else { return }
        let heading = template(.storefronts, language: page.edition.tag)
        let multilingual = multilingualStorefronts(of: page.kind, in: editions)
        let climb = String(repeating: "../", count: page.depth)
        HTMLText.markup("<footer class=\"showcase-page showcase-switcher\">\n<nav", into: &text)
        HTMLText.attribute("aria-label", heading, into: &text)
        HTMLText.element(">\n<h2>", heading, close: "</h2>\n<ul>\n", into: &text)
        for edition in others {
            HTMLText.markup("<li><a", into: &text)
            HTMLText.attribute(
                "href", climb + SitePage(kind: page.kind, edition: edition).directory, into: &text)
            HTMLText.attribute("hreflang", edition.tag, into: &text)
            let country = self.country(edition.storefront, language: page.edition.tag)
            HTMLText.element(">", country, close: "", into: &text)
            if let language = edition.language, multilingual.contains(edition.storefront) {
                HTMLText.markup(" – <span", into: &text)
                HTMLText.attribute("lang", language, into: &text)
                HTMLText.element(">", SiteRegionNames.autonym(language), close: "</span>", into: &text)
            }
            HTMLText.markup("</a></li>\n", into: &text)
        }
        HTMLText.markup("</ul>\n</nav>\n</footer>\n", into: &text)
    }

    private func meta(name: String, _ content: String, into text: inout [UInt8]) {
        void("meta", [("name", name), ("content", content)], into: &text)
    }

    private func property(_ name: String, _ content: String, into text: inout [UInt8]) {
        void("meta", [("property", name), ("content", content)], into: &text)
    }

    private func link(_ rel: String, _ href: String, into text: inout [UInt8]) {
        void("link", [("rel", rel), ("href", href)], into: &text)
    }

    private func alternate(_ hreflang: String, _ href: String, into text: inout [UInt8]) {
        void("link", [("rel", "alternate"), ("hreflang", hreflang), ("href", href)], into: &text)
    }

    /// Appends a void element of the head (`<meta>`, `<link>`) with its attributes, each value escaped.
    private func void(_ element: String, _ attributes: [(String, String)], into text: inout [UInt8]) {
        HTMLText.markup("<" + element, into: &text)
        for (name, value) in attributes { HTMLText.attribute(name, value, into: &text) }
        HTMLText.markup(">\n", into: &text)
    }
}
