import ShowcaseCore

/// The schema.org `ItemList` a fragment carries for search engines: one `ListItem` (`position` from 1) per row,
/// each a `SoftwareApplication` with the fields Google's software-app documentation reads — `name`, `url`,
/// `image`, `operatingSystem`, `applicationCategory` (``AppCategory``), `offers` (an `Offer` with a numeric
/// `price` and its `priceCurrency`, left out when the storefront gave either not) and `description` (the
/// tagline). No ratings: per-storefront counts are too thin to be honest.
enum StructuredData {
    /// The list's JSON text (before ``HTMLText/scriptSafeJSON(_:into:)`` makes it safe inside a script).
    static func itemList(_ rows: [WebListing], platform: Platform, tree: PublicTree) -> [UInt8] {
        let items: [JSONText] = rows.enumerated().map { index, row in
            var app: [(String, JSONText)] = [
                ("@type", .string("SoftwareApplication")), ("name", .string(row.name)), ("url", .string(row.storeUrl)),
            ]
            if let image = image(of: row, tree: tree) { app.append(("image", .string(image))) }
            app.append(("operatingSystem", .string(platform == .macos ? "macOS" : "iOS")))
            if let category = AppCategory.schemaOrg(genreId: row.genreId) {
                app.append(("applicationCategory", .string(category)))
            }
            if let price = row.price, price.isFinite, price >= 0, let currency = row.currency, !currency.isEmpty {
                app.append(
                    (
                        "offers",
                        .object([
                            ("@type", .string("Offer")), ("price", .double(price)),
                            ("priceCurrency", .string(currency)),
                        ])
                    ))
            }
            if let tagline = row.shownTagline { app.append(("description", .string(tagline))) }
            return .object([("@type", .string("ListItem")), ("position", .int(index + 1)), ("item", .object(app))])
        }
        let list: JSONText = .object([
            ("@context", .string("https://schema.org")), ("@type", .string("ItemList")),
            ("itemListElement", .array(items)),
        ])
        var text: [UInt8] = []
        list.write(to: &text, indent: 0)
        return text
    }

    /// An absolute image URL (a crawler has no page base it would trust for a path): the largest mirrored icon
    /// under an absolute public URL, else Apple's.
    private static func image(of row: WebListing, tree: PublicTree) -> String? {
        if let largest = row.icons.keys.max(), let url = row.icons[largest].flatMap(tree.absoluteFile) { return url }
        return tree.link(row.iconUrl)
    }
}
