/// The language a multilingual storefront's roster is fetched in: `fr` of `{code: ca, languages: [en, fr]}`,
/// sent upstream as `lang=fr_ca`.
///
/// Without `lang`, Canada, Switzerland, Belgium or India answer in one language only: names and genres of a
/// French-speaking Canadian's page would be English. A type rather than a `String` so a tag such as `fr-CA` or
/// `français` is rejected where the operator wrote it, never sent as a `lang` the endpoint ignores.
public struct RosterLanguage: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Two lowercase ASCII letters (`en`, `fr`): an ISO 639-1 language code (``iso639_1``), no region or script.
    public let code: String

    /// Parses `text` (any case, stored lowercased); nil unless it is one of the ISO 639-1 codes in ``iso639_1``.
    public init?(parsing text: String) {
        let code = text.lowercased()
        guard code.utf8.count == 2, Self.iso639_1.contains(code) else { return nil }
        self.code = code
    }

    /// The upstream `lang` value for `storefront`: `fr_ca`.
    public func lookupValue(in storefront: Storefront) -> String { code + "_" + storefront.code }

    /// The language subtag of a BCP 47 tag (`fr-CA`, `fr_ca`, `FR` → `fr`), nil when the tag does not start with
    /// one: what `Roster.Get`'s `locale` picks a roster by.
    public static func subtag(of tag: String) -> RosterLanguage? {
        let first = tag.prefix { $0 != "-" && $0 != "_" }
        return RosterLanguage(parsing: String(first))
    }

    /// The code, as the configuration and the `lang` parameter spell it.
    public var description: String { code }

    /// Orders by code.
    public static func < (lhs: RosterLanguage, rhs: RosterLanguage) -> Bool { lhs.code < rhs.code }
}
