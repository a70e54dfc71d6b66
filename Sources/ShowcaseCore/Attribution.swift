// STUB (interface contract): the core issue owns this type and its URL rewriting.

/// Campaign attribution added to store URLs at read time.
public struct Attribution: Sendable, Equatable {
    /// Apple affiliate provider token (`pt`). Without it store URLs are left untouched.
    public var providerToken: String?
    /// Campaign token (`ct`); nil means `showcase-<last bundle id component, lowercased>`.
    public var campaignToken: String?

    public init(providerToken: String? = nil, campaignToken: String? = nil) {
        self.providerToken = providerToken
        self.campaignToken = campaignToken
    }
}
