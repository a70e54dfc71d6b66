import ShowcaseCore

/// One app as a document lists it: the `App` of `Roster.Get` (overlay order, attribution and the storefront's
/// tagline already applied by the caller's reply builder) plus every locale's tagline, so a page can pick its own.
public struct ExportedApp: Sendable, Hashable {
    /// The app as `Roster.Get` answers it for the storefront's own locale.
    public var resolved: ResolvedApp
    /// Every tagline the overlay has for the app, by locale tag (`default`, `de`, `pt-BR`); empty when none.
    public var taglines: [String: String]
    /// The device families it runs on (`iphone`, `ipad`, `mac`, `vision`, `watch`, `tv`), when the roster knows
    /// them; omitted from the document when nil (pages then assume iPhone and iPad, as the lookup API does for a
    /// row without `supportedDevices`).
    public var devices: [String]?
    /// The mirrored icons (SPEC §16): pixel size → path relative to `v1/` (`icons/0123456789abcdef.jpg`); empty
    /// when none are mirrored (yet).
    public var icons: [Int: String]

    /// An app with its taglines by locale and, when known, its device families and mirrored icons.
    public init(
        _ resolved: ResolvedApp, taglines: [String: String] = [:], devices: [String]? = nil, icons: [Int: String] = [:]
    ) {
        self.resolved = resolved
        self.taglines = taglines
        self.devices = devices
        self.icons = icons
    }

    /// The app's primary genre id (`primaryGenreId`: 6014 Games, 6002 Utilities…), when the lookup gave one.
    public var genreId: Int? { resolved.app.genreId }

    /// An app whose taglines come from the overlay's entry for it: a plain tagline is every locale's, so it is
    /// listed as `default`; a localized one lists each locale and its `default`, if any.
    public init(_ resolved: ResolvedApp, tagline: Tagline?, devices: [String]? = nil) {
        var taglines: [String: String] = [:]
        switch tagline {
        case .plain(let text): taglines["default"] = text
        case .localized(let fallback, let byLocale):
            taglines = byLocale
            if let fallback { taglines["default"] = fallback }
        case nil: break
        }
        self.init(resolved, taglines: taglines, devices: devices)
    }

    /// Appends the app's JSON object: the `App` fields in the order the Varlink interface declares them, optional
    /// ones omitted when absent (as `Roster.Get` does), then `taglines` with its keys sorted, then `icons` when any.
    /// Written member by member (``JSONObjectWriter``): this is the export's hot path.
    func write(to text: inout [UInt8], indent: Int) {
        let app = resolved.app
        var object = JSONObjectWriter(indent: indent)
        object.int("id", app.id, into: &text)
        object.int("artistId", app.artistId, into: &text)
        object.string("name", app.name, into: &text)
        object.string("bundleId", app.bundleId, into: &text)
        object.string("genre", app.genre, into: &text)
        if let formattedPrice = app.formattedPrice { object.string("formattedPrice", formattedPrice, into: &text) }
        if let price = app.price { object.value("price", .double(price), into: &text) }
        if let currency = app.currency { object.string("currency", currency, into: &text) }
        object.string("platform", app.platform.rawValue, into: &text)
        if let devices { object.value("devices", .array(devices.map { .string($0) }), into: &text) }
        object.string("minimumOsVersion", app.minimumOsVersion, into: &text)
        object.string("iconUrl", app.iconUrl, into: &text)
        object.string("storeUrl", resolved.storeUrl, into: &text)
        if let tagline = resolved.tagline { object.string("tagline", tagline, into: &text) }
        let sorted = taglines.sorted { $0.key < $1.key }
        object.value("taglines", .object(sorted.map { ($0.key, .string($0.value)) }), into: &text)
        if !icons.isEmpty {
            // Export-only (Get's App has no icons): size → path under v1/, sorted by size; omitted when none, so a
            // tree without export.icons keeps its bytes.
            let bySize = icons.sorted { $0.key < $1.key }
            object.value("icons", .object(bySize.map { (String($0.key), .string($0.value)) }), into: &text)
        }
        object.finish(into: &text)
    }
}
