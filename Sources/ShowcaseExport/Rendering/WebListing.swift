import ShowcaseCore

/// One row of a web rendering, in the fields the fragment, the email variant and the structured data use: the
/// app as its document lists it, and nothing a renderer would have to look up elsewhere.
struct WebListing {
    /// `trackId`.
    var id: Int
    /// The name as the storefront localized it.
    var name: String
    /// The store URL to link (attribution applied).
    var storeUrl: String
    /// Apple's artwork URL.
    var iconUrl: String
    /// Mirrored icons by pixel size, paths relative to `v1/` (§16); empty when none.
    var icons: [Int: String]
    /// `primaryGenreId`, when the roster has it.
    var genreId: Int?
    /// The tagline for the storefront's own locale.
    var tagline: String?
    /// `formattedPrice`, as the storefront formats it.
    var formattedPrice: String?
    /// The numeric price.
    var price: Double?
    /// ISO 4217 currency.
    var currency: String?
    /// Which store sells it.
    var platform: Platform
    /// The field table's schema.org members of the app (``AppField/structuredData(of:)``), in its order.
    var structuredData: [(name: String, value: AppField.Value)] = []

    /// The row of `app` as `surface` links it (its campaign token and product page).
    init(_ app: ExportedApp, on surface: AttributionSurface) {
        self.init(
            id: app.resolved.id, name: app.resolved.app.name, storeUrl: app.storeUrl(on: surface),
            iconUrl: app.resolved.app.iconUrl, icons: app.icons, genreId: app.genreId, tagline: app.resolved.tagline,
            formattedPrice: app.resolved.app.formattedPrice, price: app.resolved.app.price,
            currency: app.resolved.app.currency, platform: app.resolved.app.platform)
        structuredData = AppField.structuredData(of: app.resolved)
    }

    /// A row from parts.
    init(
        id: Int, name: String, storeUrl: String, iconUrl: String, icons: [Int: String] = [:], genreId: Int? = nil,
        tagline: String? = nil, formattedPrice: String? = nil, price: Double? = nil, currency: String? = nil,
        platform: Platform = .ios
    ) {
        self.id = id
        self.name = name
        self.storeUrl = storeUrl
        self.iconUrl = iconUrl
        self.icons = icons
        self.genreId = genreId
        self.tagline = tagline
        self.formattedPrice = formattedPrice
        self.price = price
        self.currency = currency
        self.platform = platform
    }

    /// The store's name as the row shows it, and in the link's accessible name.
    var storeLabel: String { platform == .macos ? "Mac App Store" : "App Store" }

    /// The link's one accessible name from `template`, ``LabelKey/appLink`` in the document's language (looked up
    /// once per document): "<name>, App Store".
    func accessibleName(_ template: String) -> String {
        LabelText.filled(template, ["name": name, "store": storeLabel])
    }

    /// A tagline worth a line: nil when absent or only whitespace.
    var shownTagline: String? {
        guard let tagline, tagline.contains(where: { !$0.isWhitespace }) else { return nil }
        return tagline
    }
}
