/// The reply of `io.showcase.Admin.Refresh`: which storefronts were refreshed and which failed.
struct RefreshReply: Decodable, Sendable, Equatable {
    struct Failure: Decodable, Sendable, Equatable {
        let storefront: String
        let error: String
    }

    let refreshed: [String]
    let failed: [Failure]
}
