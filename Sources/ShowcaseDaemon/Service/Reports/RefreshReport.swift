import ShowcaseCore

/// What `Admin.Refresh` did: the storefronts refreshed, and the ones that failed with why.
struct RefreshReport: Sendable {
    /// Storefronts whose refresh succeeded, by code.
    var refreshed: [Storefront] = []
    /// Storefronts whose refresh failed, by code, with the failure.
    var failed: [(storefront: Storefront, failure: RefreshFailure)] = []
}
