import ShowcaseCore

/// Every `Roster.Get` now waiting for a warming roster (``SettleWait``), by edition, at most ``limit`` in all: a
/// part of ``DaemonState``.
///
/// An edition's waits share one fetch: the first wait starts it (``admit(_:_:)`` says so), and its end settles
/// them all (``settleAll(_:)``). A wait that ends on its own — timer, or its caller hanging up — leaves the books at
/// once, so nothing a client sends or abandons outlives the limit.
struct WaitBook: Sendable {
    /// Most waits at once, across every client and edition.
    let limit: Int
    private var byEdition: [StorefrontEdition: [ObjectIdentifier: SettleWait]] = [:]
    /// Waits booked now.
    private(set) var count = 0

    /// Books allowing at most `limit` waits at once.
    init(limit: Int) {
        self.limit = limit
    }

    /// Records `wait` for `edition`. Returns nil when ``limit`` waits are already booked (the caller answers at
    /// once instead), else whether this is the edition's first wait (the caller starts the shared fetch).
    mutating func admit(_ wait: SettleWait, _ edition: StorefrontEdition) -> Bool? {
        guard count < limit else { return nil }
        count += 1
        let first = byEdition[edition] == nil
        byEdition[edition, default: [:]][ObjectIdentifier(wait)] = wait
        return first
    }

    /// Forgets `wait` (it ended).
    mutating func remove(_ wait: SettleWait, _ edition: StorefrontEdition) {
        guard byEdition[edition]?.removeValue(forKey: ObjectIdentifier(wait)) != nil else { return }
        count -= 1
        if byEdition[edition]?.isEmpty == true { byEdition[edition] = nil }
    }

    /// Takes every wait for `edition` off the books (its fetch finished): the caller ends them with an answer.
    mutating func settleAll(_ edition: StorefrontEdition) -> [SettleWait] {
        let waits = byEdition.removeValue(forKey: edition) ?? [:]
        count -= waits.count
        return Array(waits.values)
    }
}
