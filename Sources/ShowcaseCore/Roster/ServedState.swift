/// A roster's state as everything that shows one sees it — `Roster.Get`, `Roster.Watch`, `Admin.Status`,
/// `Roster.Health`, the metrics and the export's `index.json`: the one roster-state type, mapped once from what
/// the daemon answers (``RosterAnswer``). Its raw values are the wire's words.
///
/// `unavailable` and `failed` carry no roster: `Get` and `Watch` answer them as the error behind them, Status
/// shows the state. In particular a transport failure with nothing cached is `unavailable` everywhere, never
/// `warming`, which would promise that a first fetch is merely on its way.
public enum ServedState: String, Sendable, Hashable, CaseIterable {
    /// A roster younger than `refresh.interval`.
    case fresh
    /// A roster older than `refresh.interval` (or fetched "in the future"), served while a refresh is due; in the
    /// export, the last good document kept.
    case stale
    /// Never fetched yet: the apps list is empty, which does NOT mean "no apps" (the export has no document).
    case warming
    /// The last refresh failed in transport and nothing is cached.
    case unavailable
    /// The last refresh ended in a diagnostic (MalformedResponse, MissingEntityParameter, HostAppNotFound),
    /// answered instead of any cached roster until a refresh succeeds; the export keeps its last good document
    /// and `index.json` carries the error.
    case failed

    /// The state `answer` is shown as.
    public init(_ answer: RosterAnswer) {
        switch answer {
        case .roster(_, .fresh): self = .fresh
        case .roster(_, .stale): self = .stale
        case .warming: self = .warming
        case .unavailable: self = .unavailable
        case .failed: self = .failed
        }
    }
}
