import ShowcaseCore
import ShowcaseHistory

/// The site's pages as bytes (SPEC §18), pure functions of what the layout gathered: the developer page of an
/// edition, an app's page, and its support and privacy pages. Every upstream or overlay text is escaped and sits in
/// its own isolate (`<bdi>`, or `dir="auto"` on a block), so no name can reorder the text around it (SPEC §19);
/// every word the site writes itself comes from ``Labels``.
struct SiteRenderer {
    /// One developer's apps in an edition, as a page shows them.
    struct Developer {
        /// `artistName`.
        var name: String
        /// The host its rows are exported under (`data-host`).
        var host: String
        var ios: [ExportedApp] = []
        var mac: [ExportedApp] = []
        /// Its rosters' change history there, as the overlay shows it.
        var changes: [HistoryEntry] = []
        /// Its apps' current releases, by trackId.
        var releases: [Int: HistoryBaseline.Release] = [:]

        /// Every app, iOS first.
        var apps: [ExportedApp] { ios + mac }
    }

    /// `export.site`.
    var settings: SiteDescription
    /// Where `v1/` is served, absolute (icons and `og:image`).
    var tree: PublicTree
    /// The frame every page shares.
    var frame: SitePageFrame

    /// A renderer for `settings`, icons under `tree`, words from `labels`.
    init(settings: SiteDescription, tree: PublicTree, labels: Labels) {
        self.settings = settings
        self.tree = tree
        frame = SitePageFrame(siteURL: settings.url, labels: labels)
    }

    /// `key` in the page's language.
    func label(_ key: LabelKey, _ page: SitePage, _ values: [String: String] = [:]) -> String {
        frame.text(key, language: page.edition.tag, values)
    }

    /// Appends `key`'s text with `placeholder` filled by `value` in an isolate of its own (`<bdi>`), so a name from
    /// upstream cannot reorder the words around it; the rest escaped.
    func isolated(_ key: LabelKey, _ page: SitePage, _ placeholder: String, _ value: String, into text: inout [UInt8]) {
        // NUL: no label can hold it (the overlay's are refused with control characters, the table has none).
        let parts = label(key, page, [placeholder: "\u{0}"]).split(separator: "\u{0}", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            if index > 0 { HTMLText.element("<bdi>", value, close: "</bdi>", into: &text) }
            HTMLText.escaped(String(part), into: &text)
        }
    }

    /// The developer page: one section per developer, iOS then Mac, each list in the §14 markup with its `ItemList`.
    func developerPage(_ page: SitePage, in editions: [SiteEdition], developers: [Developer]) -> [UInt8] {
        let title = settings.title ?? label(.appsBy, page, ["developer": developers.first?.name ?? ""])
        var main: [UInt8] = []
        if let title = settings.title {
            HTMLText.element("<h1><bdi>", title, close: "</bdi></h1>\n", into: &main)
        } else {
            HTMLText.markup("<h1>", into: &main)
            isolated(.appsBy, page, "developer", developers.first?.name ?? "", into: &main)
            HTMLText.markup("</h1>\n", into: &main)
        }
        for developer in developers where !developer.apps.isEmpty {
            HTMLText.element("<section>\n<h2><bdi>", developer.name, close: "</bdi></h2>\n", into: &main)
            for (platform, apps, heading) in [
                (Platform.ios, developer.ios, LabelKey.iosApps), (.macos, developer.mac, .macApps),
            ]
            where !apps.isEmpty {
                list(apps, platform: platform, heading: heading, host: developer.host, from: page, into: &main)
            }
            HTMLText.markup("</section>\n", into: &main)
        }
        let names = developers.map(\.name).joined(separator: ", ")
        let head = SitePageFrame.Head(
            title: title, description: label(.appsBy, page, ["developer": names]),
            image: developers.first?.apps.first.flatMap(image(of:)))
        return frame.document(page, in: editions, head: head, main: main)
    }

    /// `apps` of one platform as a §14 list headed by `heading` (`<h3>`, the section's first child: every
    /// `<section>` has a heading), each row linking to the app's page on this site, with the `ItemList` naming
    /// their attributed store URLs. Nothing at all when no row has a store link.
    func list(
        _ apps: [ExportedApp], platform: Platform, heading: LabelKey, host: String, from page: SitePage,
        into text: inout [UInt8]
    ) {
        let rows = apps.map { WebListing($0, on: .site) }.filter { tree.link($0.storeUrl) != nil }
        guard !rows.isEmpty else { return }
        let fragment = HTMLFragmentRenderer(tree: tree)
        HTMLText.markup("<section class=\"showcase\"", into: &text)
        HTMLText.attribute("lang", page.edition.tag, into: &text)
        if frame.isRightToLeft(page.edition.tag) { HTMLText.markup(" dir=\"rtl\"", into: &text) }
        HTMLText.attribute("data-host", host, into: &text)
        HTMLText.attribute("data-storefront", page.edition.storefront.code, into: &text)
        HTMLText.attribute("data-platform", platform.rawValue, into: &text)
        HTMLText.element(">\n<h3>", label(heading, page), close: "</h3>\n<ul class=\"showcase-apps\">\n", into: &text)
        let linkLabel = frame.template(.appLink, language: page.edition.tag)
        for row in rows {
            var linked = row
            linked.storeUrl = page.link(to: SitePage(kind: .app(row.id), edition: page.edition).directory)
            fragment.write(linked, linkLabel: linkLabel, into: &text)
        }
        HTMLText.markup("</ul>\n<script type=\"application/ld+json\">\n", into: &text)
        HTMLText.scriptSafeJSON(StructuredData.itemList(rows, platform: platform, tree: tree), into: &text)
        HTMLText.markup("\n</script>\n</section>\n", into: &text)
    }

    /// The absolute URL of an app's largest icon, for `og:image`: mirrored under the tree, else Apple's.
    func image(of app: ExportedApp) -> String? {
        if let largest = app.icons.keys.max(), let url = app.icons[largest].flatMap(tree.absoluteFile) { return url }
        return tree.link(app.resolved.app.iconUrl)
    }

    /// The hero's icon: the mirrored size that fills 128 px, else Apple's.
    func heroIcon(of app: ExportedApp) -> String? {
        if let choice = IconChoice(sizes: app.icons.keys, display: 128),
            let url = app.icons[choice.standard].flatMap(tree.file)
        {
            return url
        }
        return tree.link(app.resolved.app.iconUrl)
    }
}
