/// The reply of `io.showcase.Roster.Get`, and (with a revision) of each `Watch` reply.
struct RosterReply: Decodable, Sendable, Equatable {
    let storefront: String
    let host: String?
    /// `fresh`, `stale` or `warming`; warming's empty `apps` does not mean "no apps".
    let state: String
    let fetchedAt: String?
    let revision: Int?
    let apps: [AppRow]
}
