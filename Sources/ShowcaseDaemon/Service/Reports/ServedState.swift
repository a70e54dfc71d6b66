import ShowcaseAPI
import ShowcaseCore

/// A storefront's state as clients see it, in `Roster.Get`, `Roster.Watch` and `Admin.Status`: the one mapping
/// from what the store answers (``RosterAnswer``) to the state on the wire (``wire``, ShowcaseAPI's spelling).
///
/// `unavailable` and `failed` carry no roster: `Get` and `Watch` answer them as the error behind them, Status
/// shows the state. In particular a transport failure with nothing cached is `unavailable` everywhere, never
/// `warming`, which would promise that a first fetch is merely on its way.
enum ServedState: String, Sendable, CaseIterable {
    /// A roster younger than `refresh.interval`.
    case fresh
    /// A roster older than `refresh.interval` (or fetched "in the future"), served while a refresh is due.
    case stale
    /// Never fetched yet: the apps list is empty, which does NOT mean "no apps".
    case warming
    /// The last refresh failed in transport and nothing is cached.
    case unavailable
    /// The last refresh ended in a diagnostic, answered instead of any cached roster until a refresh succeeds.
    case failed

    /// The state `answer` is shown as.
    init(_ answer: RosterAnswer) {
        switch answer {
        case .roster(_, .fresh): self = .fresh
        case .roster(_, .stale): self = .stale
        case .warming: self = .warming
        case .unavailable: self = .unavailable
        case .failed: self = .failed
        }
    }

    /// The state as `ShowcaseAPI` spells it on the wire.
    var wire: RosterState {
        switch self {
        case .fresh: return .fresh
        case .stale: return .stale
        case .warming: return .warming
        case .unavailable: return .unavailable
        case .failed: return .failed
        }
    }
}
