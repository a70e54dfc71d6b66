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

    /// An app with its taglines by locale and, when known, its device families.
    public init(_ resolved: ResolvedApp, taglines: [String: String] = [:], devices: [String]? = nil) {
        self.resolved = resolved
        self.taglines = taglines
        self.devices = devices
    }

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

    /// The app's JSON object: the `App` fields in the order the Varlink interface declares them, optional ones
    /// omitted when absent (as `Roster.Get` does), then `taglines` with its keys sorted.
    var json: JSONText {
        let app = resolved.app
        var members: [(String, JSONText)] = [
            ("id", .int(app.id)), ("artistId", .int(app.artistId)), ("name", .string(app.name)),
            ("bundleId", .string(app.bundleId)), ("genre", .string(app.genre)),
        ]
        if let formattedPrice = app.formattedPrice { members.append(("formattedPrice", .string(formattedPrice))) }
        if let price = app.price { members.append(("price", .double(price))) }
        if let currency = app.currency { members.append(("currency", .string(currency))) }
        members.append(("platform", .string(app.platform.rawValue)))
        if let devices { members.append(("devices", .array(devices.map { .string($0) }))) }
        members += [
            ("minimumOsVersion", .string(app.minimumOsVersion)), ("iconUrl", .string(app.iconUrl)),
            ("storeUrl", .string(resolved.storeUrl)),
        ]
        if let tagline = resolved.tagline { members.append(("tagline", .string(tagline))) }
        members.append(("taglines", .object(taglines.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        return .object(members)
    }
}
