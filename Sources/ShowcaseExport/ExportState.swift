/// A roster's state as `index.json` reports it: the states `Roster.Health` uses for a storefront.
public enum ExportState: String, Sendable, Hashable, CaseIterable {
    /// Younger than `refresh.interval`.
    case fresh
    /// Older, kept because refreshing failed in transport (network, timeout, 5xx, throttling): still served.
    case stale
    /// Never fetched yet: there is no document.
    case warming
    /// Transport failed with nothing cached: there is no document.
    case unavailable
    /// A diagnostic (MalformedResponse, MissingEntityParameter, HostAppNotFound): the last good document, if
    /// any, stays as it was, and `index.json` carries the error.
    case failed
}
