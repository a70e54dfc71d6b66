import FoundationEssentials

/// An App Store storefront, always held as its lowercase ISO 3166-1 alpha-2 code.
///
/// A storefront is a type rather than a `String` so that a typo such as `zz` or a country without an App Store
/// (`ad`, Andorra) is rejected where an operator or client typed it, instead of silently turning into an empty
/// roster or a fallback to `us`.
public struct Storefront: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Lowercase alpha-2 code, the only form the lookup endpoint honours for `country` (`de`, `jp`).
    public let code: String
    /// Uppercase alpha-3 code (`DEU`), accepted on input and listed by `Storefronts()`.
    public let alpha3: String
    /// English short name (`Germany`).
    public let name: String
    /// The storefront's primary language tag (`jp` → `ja`, `de` → `de`, `us` → `en`, `br` → `pt`), the locale
    /// used to pick a tagline when a query names none.
    public let primaryLanguage: String

    /// The storefront's own locale, its primary language and region (`br` → `pt-BR`, `cn` → `zh-Hans-CN`,
    /// `tw` → `zh-Hant-TW`, `jp` → `ja-JP`): the tagline query when a `Get` names no locale, so a `pt-BR` key is
    /// found for Brazil before a `pt` one.
    public var locale: String { primaryLanguage + "-" + code.uppercased() }

    /// Parses an alpha-2 or alpha-3 code in any case, ignoring surrounding whitespace.
    ///
    /// - Throws: ``StorefrontError`` naming the text when it is not an ISO 3166-1 code, or names a country
    ///   where Apple runs no App Store storefront; a storefront's English name (`germany`) names its code.
    public init(parsing text: String) throws(StorefrontError) {
        let key = text.trimmingWhitespace().lowercased()
        guard let entry = Storefront.index[key] else {
            if let named = Storefront.table.first(where: { $0.language != nil && $0.name.lowercased() == key }) {
                throw StorefrontError(text: text, reason: .name(code: named.alpha2, country: named.name))
            }
            throw StorefrontError(text: text, reason: .unknownCode)
        }
        guard let language = entry.language else {
            throw StorefrontError(text: text, reason: .noAppStore(country: entry.name))
        }
        self.init(code: entry.alpha2, alpha3: entry.alpha3, name: entry.name, primaryLanguage: language)
    }

    private init(code: String, alpha3: String, name: String, primaryLanguage: String) {
        self.code = code
        self.alpha3 = alpha3
        self.name = name
        self.primaryLanguage = primaryLanguage
    }

    /// Every App Store storefront (about 175), sorted by code: what `storefronts: all` expands to.
    public static let all: [Storefront] = table.compactMap { entry in
        entry.language.map {
            Storefront(code: entry.alpha2, alpha3: entry.alpha3, name: entry.name, primaryLanguage: $0)
        }
    }.sorted()

    /// The United States storefront, the configuration default.
    public static let unitedStates = try! Storefront(parsing: "us")

    /// The alpha-2 code, so a storefront interpolates as the lookup endpoint spells it.
    public var description: String { code }

    /// Orders by alpha-2 code.
    public static func < (lhs: Storefront, rhs: Storefront) -> Bool { lhs.code < rhs.code }

    /// Equality by code: the other fields follow from it.
    public static func == (lhs: Storefront, rhs: Storefront) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
