/// The reply of `io.showcase.Roster.Storefronts`.
struct StorefrontsReply: Decodable, Sendable, Equatable {
    struct Entry: Decodable, Sendable, Equatable {
        let code: String
        let alpha3: String
        let name: String
        let warm: Bool
    }

    let storefronts: [Entry]
}
