/// The daemon's overall `state` in a `Roster.Health` reply, summarising every warm storefront for a monitoring
/// check.
///
/// An open set like ``RosterState``: a client built today must still read a reply from a daemon that names a
/// state it does not know, so this is a string with named constants, not a closed enum.
public struct HealthState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The state as the wire spells it.
    public let rawValue: String

    /// A state as spelled on the wire.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Every warm storefront is fresh.
    public static let ok = HealthState(rawValue: "ok")
    /// Some storefront is stale, unavailable or failed: served from an old cache, or not served at all.
    public static let degraded = HealthState(rawValue: "degraded")
    /// Nothing is wrong, but some storefront was never fetched yet.
    public static let warming = HealthState(rawValue: "warming")

    /// The wire spelling.
    public var description: String { rawValue }
}
