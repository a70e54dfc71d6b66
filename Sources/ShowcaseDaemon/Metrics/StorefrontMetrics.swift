import ShowcaseAPI

/// One roster's figures in a ``MetricsSnapshot``: the `storefront` (and `language`) labelled samples of
/// `showcase_roster_apps`, `showcase_roster_age_seconds` and `showcase_roster_state`.
public struct StorefrontMetrics: Sendable, Equatable {
    /// The alpha-2 storefront code (`de`), the `storefront` label.
    public var storefront: String
    /// The roster's language for a storefront configured with several (`fr` of `ca`), the `language` label;
    /// nil for a storefront fetched without one, which then carries no `language` label.
    public var language: String?
    /// Apps the roster serves for the default host and platform without an OS filter, as Status counts them; 0
    /// while warming.
    public var apps: Int
    /// Seconds since the roster was fetched; nil when it never was, and then no age sample is written
    /// (an age of 0 would claim a fresh roster).
    public var ageSeconds: Int?
    /// The roster's state, as `Roster.Health` and `Admin.Status` spell it; one of the daemon's states (fresh,
    /// stale, warming, unavailable, failed), each of which is one `state` label value of `showcase_roster_state`.
    public var state: RosterState

    /// The figures of one roster.
    public init(
        storefront: String, language: String? = nil, apps: Int, ageSeconds: Int?, state: RosterState
    ) {
        self.storefront = storefront
        self.language = language
        self.apps = apps
        self.ageSeconds = ageSeconds
        self.state = state
    }
}
