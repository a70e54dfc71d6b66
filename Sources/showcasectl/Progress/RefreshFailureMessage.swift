import ShowcaseAPI

/// The one line `showcasectl refresh` exits 1 with: which storefronts failed and, for each, what clients get now,
/// read from `Admin.Status` — a cached roster still served, a diagnostic answered instead, or nothing at all. A
/// failed refresh with nothing cached must not claim "the cached roster is still served" (SPEC §9: "the message
/// says which").
enum RefreshFailureMessage {
    /// The message for `failed`, where `status` (nil when it could not be read) says what each storefront serves.
    static func text(_ failed: [AdminRefreshReply.Failure], status: AdminStatusReply?) -> String {
        let list = failed.map { "\($0.storefront) (\($0.error))" }.joined(separator: ", ")
        var served: [String] = []
        for failure in failed {
            let states = status?.storefronts.filter { $0.code == failure.storefront }.map(\.state) ?? []
            let what: String
            if states.contains(.fresh) || states.contains(.stale) {
                what = "its cached roster is still served"
            } else if states.contains(.failed) {
                what = "its diagnostic is answered instead of a roster"
            } else if states.isEmpty {
                what = "a cached roster, if it has one, is still served"
            } else {
                what = "nothing is cached for it, so it answers Unavailable until a refresh succeeds"
            }
            served.append(failed.count == 1 ? what : "\(failure.storefront): \(what)")
        }
        return "refresh failed for \(list); " + served.joined(separator: "; ")
            + "; see showcasectl status for each storefront's last error"
    }
}
