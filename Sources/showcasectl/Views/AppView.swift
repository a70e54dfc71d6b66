import ShowcaseAPI

/// The human form of `showcasectl app`: one field per line, labels aligned.
enum AppView {
    static func lines(_ app: RosterApp, storefront: String, console: Console) -> [String] {
        let fields: [(String, String?)] = [
            ("name", app.name), ("id", String(app.id)), ("storefront", storefront),
            ("bundle id", app.bundleId), ("artist id", String(app.artistId)), ("price", app.formattedPrice),
            ("genre", app.genre), ("platform", app.platform), ("minimum OS", app.minimumOsVersion),
            ("tagline", app.tagline), ("store URL", app.storeUrl), ("icon URL", app.iconUrl),
        ]
        let width = fields.map(\.0.count).max() ?? 0
        return fields.map { label, value in
            console.paint((label + ":").padding(to: width + 1), .bold) + " " + (value ?? "-")
        }
    }
}
