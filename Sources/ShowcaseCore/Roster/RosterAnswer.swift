/// What `Roster.Get` answers for one storefront, before query filtering.
public enum RosterAnswer: Sendable {
    /// A roster to resolve the query against, and whether it is fresh or stale.
    case roster(Roster, Freshness)
    /// Never fetched yet: the apps list is empty, which does NOT mean "no apps".
    case warming
    /// The last refresh ended in a diagnostic (malformed response, missing entity parameter, host app not
    /// found). Answered as that error even when a roster is cached, until a refresh succeeds.
    case failed(LookupError)
    /// The last refresh failed in transport and nothing is cached.
    case unavailable(LookupError)
}
