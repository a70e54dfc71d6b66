import ShowcaseCore

/// The schema.org `ItemList` a fragment carries for search engines: one `ListItem` (`position` from 1) per row,
/// each a `SoftwareApplication` with the fields Google's software-app documentation reads — `name`, `url`,
/// `image`, `operatingSystem`, `applicationCategory` (``AppCategory``), `offers` (an `Offer` with a numeric
/// `price` and its `priceCurrency`, left out when the storefront gave either not) and `description` (the
/// tagline). No ratings: per-storefront counts are too thin to be honest. Texts carry what the fragment's HTML
/// carries (``HTMLText/stripped(_:)``): no control character or noncharacter, escaped or not.
enum StructuredData {
    /// The list's JSON text, on one line (before ``HTMLText/scriptSafeJSON(_:into:)`` makes it safe inside a
    /// script). Written straight into bytes, strings through ``JSONText/quote(_:into:)``, never through a
    /// ``JSONText`` tree: it is part of every fragment the export renders.
    static func itemList(_ rows: [WebListing], platform: Platform, tree: PublicTree) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(rows.count * 600 + 96)
        text.append(contentsOf: #"{"@context":"https://schema.org","@type":"ItemList","itemListElement":["#.utf8)
        for (index, row) in rows.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: #"{"@type":"ListItem","position":"#.utf8)
            text.append(contentsOf: String(index + 1).utf8)
            text.append(contentsOf: #","item":"#.utf8)
            application(row, platform: platform, tree: tree, into: &text)
            text.append(UInt8(ascii: "}"))
        }
        text.append(contentsOf: "]}".utf8)
        return text
    }

    /// A page's own `SoftwareApplication` (an app page of the site, SPEC §18), with its `@context`.
    static func application(_ row: WebListing, tree: PublicTree) -> [UInt8] {
        var text = Array(#"{"@context":"https://schema.org","#.utf8)
        var item: [UInt8] = []
        application(row, platform: row.platform, tree: tree, into: &item)
        text.append(contentsOf: item.dropFirst())
        return text
    }

    /// Appends one `SoftwareApplication` object.
    private static func application(_ row: WebListing, platform: Platform, tree: PublicTree, into text: inout [UInt8]) {
        text.append(contentsOf: #"{"@type":"SoftwareApplication","name":"#.utf8)
        JSONText.quote(HTMLText.stripped(row.name), into: &text)
        member("url", row.storeUrl, into: &text)
        if let image = image(of: row, tree: tree) { member("image", image, into: &text) }
        text.append(
            contentsOf: (platform == .macos ? #","operatingSystem":"macOS""# : #","operatingSystem":"iOS""#).utf8)
        if let category = AppCategory.schemaOrg(genreId: row.genreId) {
            member("applicationCategory", category, into: &text)
        }
        if let price = row.price, price.isFinite, price >= 0, let currency = row.currency, !currency.isEmpty {
            text.append(contentsOf: #","offers":{"@type":"Offer","price":"#.utf8)
            JSONText.double(price).write(to: &text, indent: 0)
            member("priceCurrency", HTMLText.stripped(currency), into: &text)
            text.append(UInt8(ascii: "}"))
        }
        if let tagline = row.shownTagline { member("description", HTMLText.stripped(tagline), into: &text) }
        for (name, value) in row.structuredData { member(name, value, into: &text) }
        text.append(UInt8(ascii: "}"))
    }

    /// Appends `,"key":"value"`.
    private static func member(_ key: String, _ value: String, into text: inout [UInt8]) {
        text.append(contentsOf: ",\"".utf8)
        text.append(contentsOf: key.utf8)
        text.append(contentsOf: "\":".utf8)
        JSONText.quote(value, into: &text)
    }

    /// Appends `,"key":value` for a value of the field table, its texts stripped as every other text here.
    private static func member(_ key: String, _ value: AppField.Value, into text: inout [UInt8]) {
        let json: JSONText
        switch value {
        case .string(let string): json = .string(HTMLText.stripped(string))
        case .int(let number): json = .int(number)
        case .float(let number): json = .double(number)
        case .strings(let strings): json = .array(strings.map { .string(HTMLText.stripped($0)) })
        }
        text.append(contentsOf: ",\"".utf8)
        text.append(contentsOf: key.utf8)
        text.append(contentsOf: "\":".utf8)
        json.write(to: &text, indent: 0)
    }

    /// An absolute image URL (a crawler has no page base it would trust for a path): the largest mirrored icon
    /// under an absolute public URL, else Apple's.
    private static func image(of row: WebListing, tree: PublicTree) -> String? {
        if let largest = row.icons.keys.max(), let url = row.icons[largest].flatMap(tree.absoluteFile) { return url }
        return tree.link(row.iconUrl)
    }
}
