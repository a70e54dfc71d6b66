import FoundationEssentials

/// One app's tagline: a single string for every locale, or per-locale strings with an optional default.
public enum Tagline: Sendable, Equatable {
    /// The same text in every locale.
    case plain(String)
    /// Text by locale tag (`de`, `ja`, `pt-BR`), and the text for any other locale (nil: no tagline there).
    /// Keys may be written in any case and with `_` for `-`; they are compared after ``normalize(_:)``.
    case localized(default: String?, byLocale: [String: String])

    /// The text for `locale`, found by RFC 4647 lookup: each tag of ``lookupChain(for:)`` in turn, then the
    /// default. A plain tagline answers every locale.
    ///
    /// `pt-BR` finds a `pt-BR` key before a `pt` one, `zh-Hant-TW` falls back to `zh-Hant` (never to `zh-Hans`),
    /// and `zh-Hans-CN` finds a `zh-CN` key. Keys equal after normalisation are refused by the config loader, so
    /// the answer never depends on dictionary order.
    public func text(for locale: String) -> String? {
        switch self {
        case .plain(let text):
            return text
        case .localized(let fallback, let byLocale):
            var normalized: [String: String] = [:]
            for (tag, text) in byLocale { normalized[Self.normalize(tag)] = text }
            for tag in Self.lookupChain(for: locale) {
                if let text = normalized[tag] { return text }
            }
            return fallback
        }
    }

    /// The tags tried for `locale`, most specific first, normalised: the tag, then its shorter prefixes
    /// (`zh-hant-tw`, `zh-hant`, `zh`), a prefix never ending in a single-letter subtag (RFC 4647 §3.4). A tag
    /// with a script subtag also tries itself without the script right after (`zh-hans-cn`, `zh-cn`, `zh-hans`,
    /// `zh`), since many files key Chinese by region.
    public static func lookupChain(for locale: String) -> [String] {
        var subtags = normalize(locale).split(separator: "-").map(String.init)
        var chain: [String] = []
        func add(_ tag: String) { if !tag.isEmpty, !chain.contains(tag) { chain.append(tag) } }
        while !subtags.isEmpty {
            add(subtags.joined(separator: "-"))
            if subtags.count > 2, isScript(subtags[1]) {
                add(([subtags[0]] + subtags[2...]).joined(separator: "-"))
            }
            subtags.removeLast()
            while let last = subtags.last, last.count == 1 { subtags.removeLast() }
        }
        return chain
    }

    /// A tag as tagline keys and queries are compared: lowercase, `_` read as `-` (`pt_BR` → `pt-br`).
    public static func normalize(_ tag: String) -> String {
        tag.trimmingWhitespace().lowercased().replacing("_", with: "-")
    }

    /// A BCP 47 script subtag: four letters (`hant`, `latn`).
    private static func isScript(_ subtag: String) -> Bool {
        subtag.count == 4 && subtag.allSatisfy { $0.isASCII && $0.isLetter }
    }
}
