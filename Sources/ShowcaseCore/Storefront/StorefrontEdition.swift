/// One roster's place: a storefront, and the language it is fetched in when the storefront is configured with
/// `languages` (`ca` in `fr`). A plain storefront has one edition, without a language, fetched without `lang`.
///
/// Everything kept per roster — the cache file, the refresh queue entry and its share of the request budget,
/// the Status row, the metrics labels — is keyed by an edition, so a storefront's French and English rosters
/// never overwrite or hide each other.
public struct StorefrontEdition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The storefront.
    public var storefront: Storefront
    /// The language, nil for a storefront fetched without `lang`.
    public var language: RosterLanguage?

    /// The edition of `storefront` in `language` (nil: fetched without `lang`).
    public init(_ storefront: Storefront, language: RosterLanguage? = nil) {
        self.storefront = storefront
        self.language = language
    }

    /// `ca` or `ca/fr`, for logs and messages.
    public var description: String { storefront.code + (language.map { "/" + $0.code } ?? "") }

    /// Orders by storefront, then language (the edition without one first).
    public static func < (lhs: StorefrontEdition, rhs: StorefrontEdition) -> Bool {
        (lhs.storefront.code, lhs.language?.code ?? "") < (rhs.storefront.code, rhs.language?.code ?? "")
    }
}
