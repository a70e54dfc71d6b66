import FoundationEssentials
import Locking
import ShowcaseCore

/// Country and language names in a document's language, for the storefront switcher (SPEC §19): countries from
/// Debian's `iso-codes` gettext catalogues (`<locales>/<locale>/LC_MESSAGES/iso_3166-1.mo`, whose msgids are the
/// English names of `iso_3166-1.json`), languages by their own name (autonym). Without `iso-codes`, or for a
/// language it has no catalogue for, a country keeps the storefront table's English name. Each catalogue is read
/// once, bounded, through ``RegularFile``, and kept per language.
final class SiteRegionNames: Sendable {
    /// The names on this system: `/usr/share/locale` and `/usr/share/iso-codes/json`.
    static let system = SiteRegionNames()

    /// The folder of gettext locales (`fr/LC_MESSAGES/…`).
    let locales: String
    /// `iso_3166-1.json` of `iso-codes`: each country's alpha-2 with the msgids of its names.
    let countries: String
    /// Per gettext locale, lowercase alpha-2 → translated name (empty when there is no catalogue).
    private let cache = Lock<[String: [String: String]]>([:])
    /// Lowercase alpha-2 → the msgids of its names, most familiar first (`common_name`, then `name`); read once.
    private let msgids = Lock<[String: [String]]?>(nil)

    /// A `.mo` or the JSON larger than this is not read (the real ones are under 50 KB).
    static let fileLimit = 4 << 20

    init(locales: String = "/usr/share/locale", countries: String = "/usr/share/iso-codes/json/iso_3166-1.json") {
        self.locales = locales
        self.countries = countries
    }

    /// `storefront`'s country name in `language` (a BCP 47 tag), else its English name.
    func country(_ storefront: Storefront, language: String) -> String {
        guard let locale = Self.gettextLocale(language) else { return storefront.name }
        return names(locale)[storefront.code] ?? storefront.name
    }

    /// The language `tag`'s own name (`Français`, `English`, `日本語`), else `tag` as written.
    static func autonym(_ tag: String) -> String {
        for candidate in Labels.lookupChain(for: tag) {
            if let name = autonyms[candidate] { return name }
        }
        return tag
    }

    /// The gettext locale folder for `language`: the first of its lookup chain with a catalogue name; nil for
    /// English (the msgids are English already).
    static func gettextLocale(_ language: String) -> String? {
        for tag in Labels.lookupChain(for: language) {
            if tag == "en" || tag.hasPrefix("en-") { return nil }
            if let locale = gettextLocales[tag] { return locale }
            if !tag.contains("-"), autonyms[tag] != nil { return tag }
        }
        return nil
    }

    /// Our tags whose gettext folder is named otherwise.
    private static let gettextLocales = [
        "zh-hans": "zh_CN", "zh-hant": "zh_TW", "pt-br": "pt_BR", "no": "nb",
    ]

    /// The translated names of `locale`, read on first use.
    private func names(_ locale: String) -> [String: String] {
        if let known = cache.withLock({ $0[locale] }) { return known }
        var names: [String: String] = [:]
        let path = locales + "/" + locale + "/LC_MESSAGES/iso_3166-1.mo"
        if let data = try? RegularFile.read(path: path, limit: Self.fileLimit) {
            let messages = GettextCatalog.messages([UInt8](data))
            for (code, ids) in countryMsgids() {
                if let name = ids.lazy.compactMap({ id in messages[id].flatMap { $0 == id ? nil : $0 } }).first {
                    names[code] = name
                }
            }
        }
        cache.withLock { $0[locale] = names }
        return names
    }

    private struct Countries: Decodable {
        struct Country: Decodable {
            var alpha_2: String
            var name: String
            var common_name: String?
        }
        var entries: [Country]
        enum CodingKeys: String, CodingKey { case entries = "3166-1" }
    }

    /// Lowercase alpha-2 → msgids from `iso_3166-1.json`; empty when it is missing or unreadable.
    private func countryMsgids() -> [String: [String]] {
        if let known = msgids.withLock({ $0 }) { return known }
        var ids: [String: [String]] = [:]
        if let data = try? RegularFile.read(path: countries, limit: Self.fileLimit),
            let decoded = try? JSONDecoder().decode(Countries.self, from: data)
        {
            for country in decoded.entries {
                ids[country.alpha_2.lowercased()] = [country.common_name, country.name].compactMap { $0 }
            }
        }
        msgids.withLock { $0 = ids }
        return ids
    }

    /// The App Store's languages (SPEC §19) by their own names, keyed by normalized tag.
    private static let autonyms: [String: String] = [
        "ar": "العربية", "ca": "Català", "cs": "Čeština", "da": "Dansk", "de": "Deutsch", "el": "Ελληνικά",
        "en": "English", "es": "Español", "fi": "Suomi", "fr": "Français", "he": "עברית", "hi": "हिन्दी",
        "hr": "Hrvatski", "hu": "Magyar", "id": "Bahasa Indonesia", "it": "Italiano", "ja": "日本語", "ko": "한국어",
        "ms": "Bahasa Melayu", "nl": "Nederlands", "no": "Norsk", "pl": "Polski", "pt": "Português",
        "pt-br": "Português (Brasil)", "ro": "Română", "ru": "Русский", "sk": "Slovenčina", "sv": "Svenska",
        "th": "ไทย", "tr": "Türkçe", "uk": "Українська", "vi": "Tiếng Việt", "zh-hans": "简体中文",
        "zh-hant": "繁體中文",
    ]
}
