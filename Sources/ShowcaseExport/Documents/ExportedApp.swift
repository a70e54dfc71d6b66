import ShowcaseCore

/// One app as a document lists it: the served `App` of `Roster.Get` (``ResolvedApp``: overlay order, attribution
/// and the storefront's tagline already applied by the caller's reply builder), written by the same field list
/// (``ResolvedApp/writeFields(to:)``), plus every locale's tagline, so a page can pick its own, and the mirrored
/// icons.
public struct ExportedApp: Sendable, Hashable {
    /// The app as `Roster.Get` answers it for the storefront's own locale.
    public var resolved: ResolvedApp
    /// Every tagline the overlay has for the app, by locale tag (`default`, `de`, `pt-BR`); empty when none.
    public var taglines: [String: String]
    /// The mirrored icons (SPEC §16): pixel size → path relative to `v1/` (`icons/0123456789abcdef.jpg`); empty
    /// when none are mirrored (yet).
    public var icons: [Int: String]
    /// The store URL of a web surface (`html`, `email`) whose campaign token or product page differs from the
    /// JSON document's (SPEC §19); a surface not here links ``ResolvedApp/storeUrl``, the document's own.
    public var storeUrls: [AttributionSurface: String] = [:]

    /// An app with its taglines by locale and its mirrored icons.
    public init(_ resolved: ResolvedApp, taglines: [String: String] = [:], icons: [Int: String] = [:]) {
        self.resolved = resolved
        self.taglines = taglines
        self.icons = icons
    }

    /// The store URL `surface` links: its own when it has one, else the document's.
    public func storeUrl(on surface: AttributionSurface) -> String { storeUrls[surface] ?? resolved.storeUrl }

    /// The device families it runs on (`iphone`, `ipad`, `mac`, `vision`, `watch`, `tv`), as `Roster.Get` lists
    /// them: the app's own, like every other field of the document's app.
    public var devices: [String] { resolved.app.devices.names }

    /// The app's primary genre id (`primaryGenreId`: 6014 Games, 6002 Utilities…), when the lookup gave one.
    public var genreId: Int? { resolved.app.genreId }

    /// An app whose taglines come from the overlay's entry for it: a plain tagline is every locale's, so it is
    /// listed as `default`; a localized one lists each locale and its `default`, if any.
    public init(_ resolved: ResolvedApp, tagline: Tagline?) {
        var taglines: [String: String] = [:]
        switch tagline {
        case .plain(let text): taglines["default"] = text
        case .localized(let fallback, let byLocale):
            taglines = byLocale
            if let fallback { taglines["default"] = fallback }
        case nil: break
        }
        self.init(resolved, taglines: taglines)
    }

    /// Appends the app's JSON object: the served `App` fields (``ResolvedApp/writeFields(to:)``, the list the
    /// Varlink reply is written from too), then `taglines` with its keys sorted, then `icons` when any.
    /// Written member by member (``JSONAppFields``): this is the export's hot path.
    func write(to text: inout [UInt8], indent: Int) {
        var fields = JSONAppFields(indent: indent)
        swap(&text, &fields.text)
        resolved.writeFields(to: &fields)
        let sorted = taglines.sorted { $0.key < $1.key }
        fields.member("taglines", .object(sorted.map { ($0.key, .string($0.value)) }))
        if !icons.isEmpty {
            // Export-only (Get's App has no icons): size → path under v1/, sorted by size; omitted when none, so a
            // tree without export.icons keeps its bytes.
            let bySize = icons.sorted { $0.key < $1.key }
            fields.member("icons", .object(bySize.map { (String($0.key), .string($0.value)) }))
        }
        fields.finish()
        swap(&text, &fields.text)
    }
}
