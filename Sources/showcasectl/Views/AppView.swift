import ShowcaseAPI
import ShowcaseCore
import Varlink

/// The human form of `showcasectl app`: one field per line, labels aligned; after the fields it always showed, every
/// field the table (``AppField/all``) shows in this view (``AppField/Surfaces/appView``), `-` when the app lacks it.
enum AppView {
    static func lines(_ app: RosterApp, storefront: String, console: Console) -> [String] {
        let fields: [(String, String?)] = [
            ("name", app.name), ("id", String(app.id)), ("storefront", storefront),
            ("bundle id", app.bundleId), ("artist id", String(app.artistId)), ("price", app.formattedPrice),
            ("genre", app.genre), ("platform", app.platform), ("minimum OS", app.minimumOsVersion),
            ("tagline", app.tagline), ("store URL", app.storeUrl), ("icon URL", app.iconUrl),
        ]
        let lines = fields + tableLines(app)
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { label, value in
            console.paint((label + ":").padding(to: width + 1), .bold) + " " + (value ?? "-")
        }
    }

    /// The lines of the table's ``AppField/Surfaces/appView`` fields, read from the app's members by name.
    private static func tableLines(_ app: RosterApp) -> [(String, String?)] {
        AppField.all.filter { $0.surfaces.contains(.appView) }.map { field in
            (field.label ?? field.name, app.otherFields[field.name].flatMap(\.shownText))
        }
    }
}

extension JSONValue {
    /// A member's value as one line shows it: a text as it is, a number in decimal, a list joined by spaces.
    fileprivate var shownText: String? {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .array(let items): items.compactMap(\.shownText).joined(separator: " ")
        case .null, .object: nil
        }
    }
}
