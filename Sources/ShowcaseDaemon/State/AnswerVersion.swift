import FoundationEssentials
import Synchronization

/// A change counter for one storefront's answers, bumped by ``StateOwner`` whenever that storefront's rosters
/// change, and read lock-free by whoever keeps a copy of an answer (``AnswerVersion``).
final class StorefrontStamp: Sendable {
    private let counter = Atomic<Int>(0)

    /// The current count.
    var value: Int { counter.load(ordering: .acquiring) }

    /// Counts one change.
    func bump() { counter.wrappingAdd(1, ordering: .releasing) }
}

/// What one answer was computed from: the daemon's published version (bumped by every change that can touch
/// every storefront: a reload, an identity, the cache listing), its storefront's stamp, and when a `fresh`
/// answer turns `stale`. The one rule for "is this copy still current", used by every cache of answers (the
/// reply cache, the Watch entries).
///
/// ``StateOwner`` reads the versions under the same lock as the state it answers from, so a copy is never
/// current for a state it was not computed from; a change racing with a reader leaves the copy stale at worst.
struct AnswerVersion: Sendable {
    /// ``StateOwner/version`` when the answer was computed, or ``never``.
    let version: Int
    /// The version of an answer computed under a configuration no longer in force: it never holds (the owner's
    /// version counts up from 0).
    static let never = -1
    /// The storefront's counter, kept so the check needs no lookup.
    let storefront: StorefrontStamp
    /// Its value when the answer was computed.
    let storefrontValue: Int
    /// When the answer stops holding on its own (a `fresh` roster turning stale); nil when only a change ends it.
    var expires: Date?

    /// Whether the answer still holds, `version` being the owner's current one and `now` the time (read only
    /// when the answer can expire).
    func holds(atVersion version: Int, now: @autoclosure () -> Date) -> Bool {
        guard self.version == version, storefront.value == storefrontValue else { return false }
        guard let expires else { return true }
        return now() < expires
    }
}
