/// A storefront code that cannot be used. It names the code, so a typo is visible rather than silently replaced
/// by a default storefront.
public struct StorefrontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why a code was refused.
    public enum Reason: Equatable, Sendable {
        /// Not an ISO 3166-1 alpha-2 or alpha-3 code at all (`zz`).
        case unknownCode
        /// A real country where Apple runs no App Store storefront (`ad`, Andorra).
        case noAppStore(country: String)
        /// A storefront's English name instead of its code (`germany`, `United Kingdom`): `code` is the one meant.
        case name(code: String, country: String)
    }

    /// The text exactly as given.
    public let text: String
    /// Why it was refused.
    public let reason: Reason

    /// Creates the error for `text`.
    public init(text: String, reason: Reason = .unknownCode) {
        self.text = text
        self.reason = reason
    }

    /// One sentence saying what was wrong and what to type instead.
    public var description: String {
        switch reason {
        case .unknownCode:
            "'\(text)' is not an ISO 3166-1 country code; use an App Store storefront's alpha-2 code like 'de' "
                + "or alpha-3 code like 'DEU'"
        case .noAppStore(let country):
            "'\(text)' (\(country)) has no App Store storefront; use one of the codes `showcasectl storefronts` "
                + "lists"
        case .name(let code, let country):
            "'\(text)' is a country's name, not a code: \(country)'s storefront is '\(code)'"
        }
    }
}
