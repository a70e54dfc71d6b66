import ShowcaseCore

/// `<platform>.email.html` (SPEC §14): the roster for a newsletter template, in the HTML email clients render.
///
/// A `<table role="presentation">` per list, one row per app: the icon in its own cell, then the name, tagline,
/// price and store label, each linked to the store. Every style is inline; there is no `<script>`, `<style>`,
/// `class` or relative URL (a mail client has no page to resolve one against, and strips the rest), and every
/// image has `width` and `height` (clients that block images keep the layout). Mirrored icons are used only
/// through an absolute `export.public_url`; otherwise Apple's `iconUrl`. No app to show renders nothing.
///
/// Direction (SPEC §19): in a language written right to left the table has `dir="rtl"` (the icon cell then
/// stands on the right, its gap on its left), and every text from upstream or the overlay — name, tagline,
/// price — is the only content of a `<span dir="auto">`, a bidi isolate, so no control in a name reorders the
/// price and store label after it. The link's accessible name is ``LabelKey/appLink`` in the document's language.
public struct EmailRenderer: DocumentRenderer {
    /// The file beside `<platform>.json`: `<platform>.email.html`.
    public static let suffix = ".email.html"

    // The inline styles, joined once. The table paints its own white background, so a reader that darkens the
    // message around it leaves the dark text readable (SPEC §19).
    private static let tableStyle =
        " style=\"border-collapse:collapse;border-spacing:0;width:100%;max-width:600px;"
        + "font-family:-apple-system,'Helvetica Neue',Helvetica,Arial,sans-serif;color:#1d1d1f;"
        + "background-color:#ffffff\">\n"
    private static let imageEnd =
        " alt=\"\" width=\"64\" height=\"64\" style=\"display:block;width:64px;height:64px;border:0;"
        + "border-radius:14px\"></a>"
    private static let nameStart =
        " style=\"text-decoration:none;color:#1d1d1f\"><span dir=\"auto\" style=\"font-size:16px;font-weight:600;"
        + "line-height:22px\">"
    private static let badgeStart =
        "<span style=\"font-size:12px;line-height:20px;color:#ffffff;background-color:#1d1d1f;"
        + "border-radius:6px;padding:2px 8px;white-space:nowrap\">"

    /// Where the tree is served, for mirrored icons (used only when absolute).
    public var tree: PublicTree
    /// The words the email variant writes itself (each row's accessible name).
    public var labels: Labels

    /// ``suffix``, as the writer asks for it.
    public var suffix: String { Self.suffix }

    /// A renderer linking mirrored icons under `tree` when it is absolute, writing `labels`.
    public init(tree: PublicTree = .standard, labels: Labels = .builtIn) {
        self.tree = tree
        self.labels = labels
    }

    /// The file for `document` in the tree `context` names (its `export.public_url`), with its roster's labels.
    public func render(_ document: ExportDocument, in context: RenderContext) -> [UInt8] {
        Self(tree: PublicTree(context), labels: context.roster.labels).render(document)
    }

    /// The email fragment of `document`; empty when it has no app with a safe store link.
    public func render(_ document: ExportDocument) -> [UInt8] {
        render(document, listings: document.apps.map { WebListing($0, on: .email) })
    }

    /// The email fragment of `document` showing `listings`.
    func render(_ document: ExportDocument, listings: [WebListing]) -> [UInt8] {
        let rows = listings.filter { tree.link($0.storeUrl) != nil }
        guard !rows.isEmpty else { return [] }
        var text: [UInt8] = []
        text.reserveCapacity(rows.count * 1500 + 256)
        HTMLText.markup("<table role=\"presentation\"", into: &text)
        let language = document.webLanguage
        let rightToLeft = Labels.isRightToLeft(language)
        HTMLText.attribute("lang", language, into: &text)
        if rightToLeft { HTMLText.markup(" dir=\"rtl\"", into: &text) }
        HTMLText.markup(Self.tableStyle, into: &text)
        let linkLabel = labels.template(.appLink, language: language)
        for row in rows { write(row, linkLabel: linkLabel, rightToLeft: rightToLeft, into: &text) }
        HTMLText.markup("</table>\n", into: &text)
        return text
    }

    private func write(_ row: WebListing, linkLabel: String, rightToLeft: Bool, into text: inout [UInt8]) {
        HTMLText.markup("<tr>\n", into: &text)
        // The gap between icon and text is on the side the text is: right of the icon, or left of it in RTL.
        let padding = rightToLeft ? "8px 0 8px 12px" : "8px 12px 8px 0"
        HTMLText.markup("<td style=\"width:64px;padding:\(padding);vertical-align:top\">", into: &text)
        if let icon = icon(of: row) {
            HTMLText.markup("<a", into: &text)
            HTMLText.attribute("href", row.storeUrl, into: &text)
            // The image's alt is empty (the name beside it says what it is), so the link is named here.
            HTMLText.attribute("aria-label", row.accessibleName(linkLabel), into: &text)
            HTMLText.markup(" style=\"text-decoration:none\"><img", into: &text)
            HTMLText.attribute("src", icon, into: &text)
            HTMLText.markup(
                Self.imageEnd, into: &text)
        }
        HTMLText.markup("</td>\n<td style=\"padding:8px 0;vertical-align:middle\"><a", into: &text)
        HTMLText.attribute("href", row.storeUrl, into: &text)
        HTMLText.attribute("aria-label", row.accessibleName(linkLabel), into: &text)
        HTMLText.element(
            Self.nameStart, row.name, close: "</span>", into: &text)
        if let tagline = row.shownTagline {
            HTMLText.element(
                "<br><span dir=\"auto\" style=\"font-size:14px;line-height:20px;color:#6e6e73\">", tagline,
                close: "</span>",
                into: &text)
        }
        HTMLText.markup("<br>", into: &text)
        if let price = row.formattedPrice, !price.isEmpty {
            HTMLText.element(
                "<span dir=\"auto\" style=\"font-size:14px;line-height:20px;color:#6e6e73\">", price, close: "</span> ",
                into: &text)
        }
        HTMLText.element(
            Self.badgeStart, row.storeLabel, close: "</span>",
            into: &text)
        HTMLText.markup("</a></td>\n</tr>\n", into: &text)
    }

    /// The image URL: a mirrored icon (2× the 64-pixel cell when there is one) under an absolute public URL,
    /// else Apple's icon when it is https, else none.
    func icon(of row: WebListing) -> String? {
        if let choice = IconChoice(sizes: row.icons.keys, display: HTMLFragmentRenderer.iconSize),
            let url = row.icons[choice.retina ?? choice.standard].flatMap(tree.absoluteFile)
        {
            return url
        }
        return tree.link(row.iconUrl)
    }
}
