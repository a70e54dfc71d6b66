import Locking
import ShowcaseCore

/// The storefronts the daemon keeps refreshed: the configured ones plus any fetched on demand.
///
/// Mirrors the scheduler's set so loop-thread handlers (`Storefronts`, `Get`) can answer without
/// awaiting the scheduler actor.
final class WarmSet: Sendable {
    private let members = Lock<Set<Storefront>>([])

    var all: Set<Storefront> { members.withLock { $0 } }

    func contains(_ storefront: Storefront) -> Bool { members.withLock { $0.contains(storefront) } }

    /// Adds `storefront`; returns true when it was not there yet (the caller starts its on-demand fetch).
    func insert(_ storefront: Storefront) -> Bool { members.withLock { $0.insert(storefront).inserted } }

    func remove(_ storefront: Storefront) { _ = members.withLock { $0.remove(storefront) } }
}
