/// One app in a query's answer: the app, its attributed store URL and its tagline for the query's locale.
public struct ResolvedApp: Sendable, Hashable {
    /// The app as the storefront described it (`storeUrl` there is Apple's, unattributed).
    public var app: App
    /// The store URL to serve: Apple's, plus `pt`/`ct`/`mt` when a provider token is configured.
    public var storeUrl: String
    /// The overlay's tagline for the query's locale, if any. Never invented: upstream has no subtitle.
    public var tagline: String?

    /// Creates a resolved app.
    public init(app: App, storeUrl: String, tagline: String?) {
        self.app = app
        self.storeUrl = storeUrl
        self.tagline = tagline
    }

    /// Shorthand for `app.id`.
    public var id: Int { app.id }
}
