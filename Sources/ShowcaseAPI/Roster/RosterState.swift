/// The `state` of a roster in `Roster.Get`, `Roster.Watch`, `Roster.Health` and `Admin.Status` replies.
///
/// An open set: a client built today must still read a reply from a daemon that names a state it does not know
/// (as `unavailable` was added), so this is a string with named constants, not a closed enum.
public struct RosterState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The state as the wire spells it.
    public let rawValue: String

    /// A state as spelled on the wire.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Fetched within `refresh.interval`.
    public static let fresh = RosterState(rawValue: "fresh")
    /// Fetched longer ago than `refresh.interval`; still served, since a stale roster beats none.
    public static let stale = RosterState(rawValue: "stale")
    /// Never fetched yet: its empty `apps` does not mean "no apps".
    public static let warming = RosterState(rawValue: "warming")
    /// In `Admin.Status` and `Roster.Health` only: the last refresh failed in transport and nothing is cached
    /// (`Get` and `Watch` answer the `Unavailable` error instead).
    public static let unavailable = RosterState(rawValue: "unavailable")
    /// In `Admin.Status` and `Roster.Health` only: the last refresh ended in a diagnostic that is answered
    /// instead of the roster.
    public static let failed = RosterState(rawValue: "failed")

    /// The wire spelling.
    public var description: String { rawValue }
}
