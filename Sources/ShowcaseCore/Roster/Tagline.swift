import Foundation

/// One app's tagline: a single string for every locale, or per-locale strings with an optional default.
public enum Tagline: Sendable, Equatable {
    /// The same text in every locale.
    case plain(String)
    /// Text by locale tag (`de`, `ja`, `pt-BR`), and the text for any other locale (nil: no tagline there).
    case localized(default: String?, byLocale: [String: String])

    /// The text for `locale`: the exact tag (case-insensitive, `_` read as `-`), then its language (`de-AT` →
    /// `de`), then the default. A plain tagline answers every locale.
    public func text(for locale: String) -> String? {
        switch self {
        case .plain(let text):
            return text
        case .localized(let fallback, let byLocale):
            let wanted = Self.normalize(locale)
            var byLanguage: String?
            let language = wanted.split(separator: "-").first.map(String.init) ?? wanted
            for (tag, text) in byLocale {
                let tag = Self.normalize(tag)
                if tag == wanted { return text }
                if tag == language { byLanguage = text }
            }
            return byLanguage ?? fallback
        }
    }

    private static func normalize(_ tag: String) -> String {
        tag.lowercased().replacingOccurrences(of: "_", with: "-")
    }
}
