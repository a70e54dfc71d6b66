import ShowcaseCore
import ShowcaseHistory

extension SiteRenderer {
    /// An app's page: icon, name, tagline, price and the attributed store link; "What's new" (the current version,
    /// its date and notes, then earlier versions from the history); links to its support and privacy pages; and
    /// "More from" its developer.
    func appPage(_ page: SitePage, in editions: [SiteEdition], app: ExportedApp, developer: Developer) -> [UInt8] {
        let row = WebListing(app, on: .site)
        var main: [UInt8] = []
        HTMLText.markup("<p><a", into: &main)
        HTMLText.attribute(
            "href", page.link(to: SitePage(kind: .developer, edition: page.edition).directory), into: &main)
        HTMLText.markup(">", into: &main)
        isolated(.allApps, page, "developer", developer.name, into: &main)
        HTMLText.markup("</a></p>\n<div class=\"showcase-hero\">", into: &main)
        if let icon = heroIcon(of: app) {
            HTMLText.markup("<img", into: &main)
            HTMLText.attribute("src", icon, into: &main)
            HTMLText.markup(" alt=\"\" width=\"128\" height=\"128\">", into: &main)
        }
        HTMLText.element("<div><h1><bdi>", row.name, close: "</bdi></h1>\n", into: &main)
        if let tagline = row.shownTagline {
            HTMLText.element("<p class=\"showcase-secondary\" dir=\"auto\">", tagline, close: "</p>\n", into: &main)
        }
        HTMLText.markup("</div></div>\n<p>", into: &main)
        if let price = row.formattedPrice, !price.isEmpty {
            HTMLText.element("<bdi class=\"showcase-price\">", price, close: "</bdi> ", into: &main)
        }
        if tree.link(row.storeUrl) != nil {
            HTMLText.markup("<a class=\"showcase-store\"", into: &main)
            HTMLText.attribute("href", row.storeUrl, into: &main)
            HTMLText.element("><bdi>", row.name, close: "</bdi> – ", into: &main)
            HTMLText.escaped(label(.viewInStore, page, ["store": row.storeLabel]), into: &main)
            HTMLText.markup("</a>", into: &main)
        }
        HTMLText.markup("</p>\n", into: &main)
        whatsNew(app, changes: developer.changes, release: developer.releases[app.resolved.id], page: page, into: &main)
        pageLinks(app, page: page, into: &main)
        let others = developer.apps.filter { $0.resolved.id != app.resolved.id }
        if !others.isEmpty {
            HTMLText.markup("<h2>", into: &main)
            isolated(.moreFrom, page, "developer", developer.name, into: &main)
            HTMLText.markup("</h2>\n", into: &main)
            for (platform, heading) in [(Platform.ios, LabelKey.iosApps), (.macos, .macApps)] {
                let apps = others.filter { $0.resolved.app.platform == platform }
                list(apps, platform: platform, heading: heading, host: developer.host, from: page, into: &main)
            }
        }
        let head = SitePageFrame.Head(
            title: row.name + " – " + developer.name, description: row.shownTagline ?? row.name,
            image: image(of: app), banner: row.platform == .ios ? row.id : nil,
            structuredData: StructuredData.application(row, tree: tree))
        return frame.document(page, in: editions, head: head, main: main)
    }

    /// "What's new": the current version with its date and notes (from the history's entry for it, when there is
    /// one, else from the current `release` the baseline keeps), then the earlier versions the history recorded,
    /// newest first.
    private func whatsNew(
        _ app: ExportedApp, changes: [HistoryEntry], release: HistoryBaseline.Release?, page: SitePage,
        into main: inout [UInt8]
    ) {
        let updates = changes.filter {
            $0.kind == .updated && $0.id == app.resolved.id && $0.platform == app.resolved.app.platform
                && $0.version != nil
        }
        .sorted { $0.serial > $1.serial }
        let current = app.resolved.app.version
        guard current != nil || !updates.isEmpty else { return }
        HTMLText.element("<h2>", label(.whatsNew, page), close: "</h2>\n", into: &main)
        if let current {
            if let entry = updates.first(where: { $0.version == current }) {
                version(current, date: entry.versionDate, notes: entry.releaseNotes, page: page, into: &main)
            } else {
                let shown = release?.version == current ? release : nil
                version(current, date: shown?.versionDate, notes: shown?.releaseNotes, page: page, into: &main)
            }
        }
        let earlier = updates.filter { $0.version != current }
        guard !earlier.isEmpty else { return }
        HTMLText.element("<h2>", label(.earlierVersions, page), close: "</h2>\n", into: &main)
        for entry in earlier {
            version(entry.version ?? "", date: entry.versionDate, notes: entry.releaseNotes, page: page, into: &main)
        }
    }

    /// One version: its heading, date and release notes.
    private func version(
        _ number: String, date: String?, notes: String?, page: SitePage, into main: inout [UInt8]
    ) {
        HTMLText.markup("<h3>", into: &main)
        isolated(.version, page, "version", number, into: &main)
        HTMLText.markup("</h3>\n", into: &main)
        if let date = date.map({ String($0.prefix(10)) }), Self.isDate(date) {
            HTMLText.markup("<p class=\"showcase-secondary\"><time", into: &main)
            HTMLText.attribute("datetime", date, into: &main)
            HTMLText.element(">", date, close: "</time></p>\n", into: &main)
        }
        if let notes, notes.contains(where: { !$0.isWhitespace }) {
            HTMLText.element("<p class=\"showcase-notes\" dir=\"auto\">", notes, close: "</p>\n", into: &main)
        }
    }

    /// Whether `text` is `YYYY-MM-DD` (a `<time datetime>` must be a valid date).
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// Links to the app's support and privacy pages, when `export.site.pages` names them.
    private func pageLinks(_ app: ExportedApp, page: SitePage, into main: inout [UInt8]) {
        let id = app.resolved.id
        guard let pages = settings.pages[id], pages.support != nil || pages.privacy != nil else { return }
        HTMLText.markup("<ul>\n", into: &main)
        for (kind, key, present) in [
            (SitePageKind.support(id), LabelKey.support, pages.support != nil),
            (.privacy(id), .privacy, pages.privacy != nil),
        ] where present {
            HTMLText.markup("<li><a", into: &main)
            HTMLText.attribute(
                "href", page.link(to: SitePage(kind: kind, edition: page.edition).directory), into: &main)
            HTMLText.element("><bdi>", app.resolved.app.name, close: "</bdi> – ", into: &main)
            HTMLText.escaped(label(key, page), into: &main)
            HTMLText.markup("</a></li>\n", into: &main)
        }
        HTMLText.markup("</ul>\n", into: &main)
    }

    /// An app's support or privacy page: the Markdown rendered, under the app's name and a link back to its page.
    func textPage(_ page: SitePage, in editions: [SiteEdition], app: ExportedApp, markdown: String) -> [UInt8] {
        let key: LabelKey
        if case .privacy = page.kind { key = .privacy } else { key = .support }
        let name = app.resolved.app.name
        var main: [UInt8] = []
        HTMLText.markup("<p><a", into: &main)
        HTMLText.attribute(
            "href", page.link(to: SitePage(kind: .app(app.resolved.id), edition: page.edition).directory), into: &main)
        HTMLText.element("><bdi>", name, close: "</bdi></a></p>\n", into: &main)
        HTMLText.element("<h1><bdi>", name, close: "</bdi> – ", into: &main)
        HTMLText.escaped(label(key, page), into: &main)
        HTMLText.markup("</h1>\n<div class=\"showcase-markdown\">\n", into: &main)
        main.append(contentsOf: SiteMarkdown.html(markdown))
        HTMLText.markup("</div>\n", into: &main)
        let title = name + " – " + label(key, page)
        let head = SitePageFrame.Head(title: title, description: title, image: image(of: app))
        return frame.document(page, in: editions, head: head, main: main)
    }
}
