import Locking
import ShowcaseCore

/// Every `Roster.Get` now waiting for a warming roster (``SettleWait``), by edition, at most ``limit`` in all.
///
/// An edition's waits share one fetch: the first wait starts it (``admit(_:_:)`` says so), and its end settles
/// them all (``settleAll(_:)``). A wait that ends on its own — timer, or its caller hanging up — leaves the books at
/// once, so nothing a client sends or abandons outlives the limit.
final class PendingWaits: Sendable {
    private struct Books {
        var byEdition: [StorefrontEdition: [ObjectIdentifier: SettleWait]] = [:]
        var count = 0
    }

    /// Most waits at once, across every client and edition.
    let limit: Int
    private let books = LockedBox(Books())

    /// Books allowing at most `limit` waits at once.
    init(limit: Int) {
        self.limit = limit
    }

    /// Records `wait` for `edition`. Returns nil when ``limit`` waits are already booked (the caller answers at
    /// once instead), else whether this is the edition's first wait (the caller starts the shared fetch).
    func admit(_ wait: SettleWait, _ edition: StorefrontEdition) -> Bool? {
        books.withLock { books in
            guard books.count < limit else { return nil }
            books.count += 1
            let first = books.byEdition[edition] == nil
            books.byEdition[edition, default: [:]][ObjectIdentifier(wait)] = wait
            return first
        }
    }

    /// Forgets `wait` (it ended).
    func remove(_ wait: SettleWait, _ edition: StorefrontEdition) {
        books.withLock { books in
            guard books.byEdition[edition]?.removeValue(forKey: ObjectIdentifier(wait)) != nil else { return }
            books.count -= 1
            if books.byEdition[edition]?.isEmpty == true { books.byEdition[edition] = nil }
        }
    }

    /// Ends every wait for `edition` with an answer (its fetch finished).
    func settleAll(_ edition: StorefrontEdition) {
        let waits = books.withLock { books in
            let waits = books.byEdition.removeValue(forKey: edition) ?? [:]
            books.count -= waits.count
            return waits
        }
        for wait in waits.values { wait.finish(deliver: true) }
    }

    /// Waits booked now (tests).
    var count: Int { books.withLock { $0.count } }
}
