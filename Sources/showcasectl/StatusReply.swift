/// The reply of `io.showcase.Admin.Status`.
struct StatusReply: Decodable, Sendable, Equatable {
    struct Upstream: Decodable, Sendable, Equatable {
        let requests: Int
        let failures: Int
        let throttled: Int
    }

    struct StorefrontState: Decodable, Sendable, Equatable {
        let code: String
        let state: String
        let fetchedAt: String?
        let nextRefreshAt: String?
        let apps: Int
        let lastError: String?
    }

    let version: String
    let configPath: String
    let configGeneration: Int
    let lastReloadError: String?
    let upstream: Upstream
    let storefronts: [StorefrontState]
}
