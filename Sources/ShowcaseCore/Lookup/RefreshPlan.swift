import FoundationEssentials

/// Which upstream requests a full warm needs: the fewest that serve every host in every storefront.
///
/// A host's identity is resolved once (one identity request, in the first storefront, only when not cached) and
/// re-resolved once per `refresh.interval` (an app can be transferred to another developer), and hosts of the same
/// developer share one roster request per storefront and language. A full warm of S storefront editions (one per
/// configured language, one for a plain storefront) with H hosts of one developer therefore costs at most S + H
/// requests, plus H per interval for re-resolution.
public enum RefreshPlan {
    /// The identity requests for hosts whose identity is not known yet — or, given `now` and `lifetime`, was
    /// resolved (or last checked) `lifetime` or longer ago — in host order.
    public static func identityRequests(
        hosts: [String], identities: [String: HostIdentity], storefront: Storefront, now: Date? = nil,
        lifetime: Duration? = nil
    ) -> [LookupRequest] {
        var seen: Set<String> = []
        return hosts.filter { host in
            guard seen.insert(host).inserted else { return false }
            guard let identity = identities[host] else { return true }
            guard let now, let lifetime else { return false }
            return now.timeIntervalSince(identity.resolvedAt) >= lifetime.seconds
        }.map { .identity(bundleId: $0, storefront: storefront) }
    }

    /// One roster request per (developer, storefront) among the known identities, storefront-major so that the
    /// first storefront is warm for every developer first.
    public static func rosterRequests(
        hosts: [String], identities: [String: HostIdentity], storefronts: [Storefront]
    ) -> [LookupRequest] {
        rosterRequests(hosts: hosts, identities: identities, editions: storefronts.map { StorefrontEdition($0) })
    }

    /// One roster request per (developer, storefront, language) among the known identities, edition-major so
    /// that the first edition is warm for every developer first.
    public static func rosterRequests(
        hosts: [String], identities: [String: HostIdentity], editions: [StorefrontEdition]
    ) -> [LookupRequest] {
        var developers: [Int] = []
        for host in hosts {
            if let artistId = identities[host]?.artistId, !developers.contains(artistId) {
                developers.append(artistId)
            }
        }
        var seen: Set<StorefrontEdition> = []
        return editions.filter { seen.insert($0).inserted }.flatMap { edition in
            developers.map {
                LookupRequest.roster(artistId: $0, storefront: edition.storefront, language: edition.language)
            }
        }
    }
}
