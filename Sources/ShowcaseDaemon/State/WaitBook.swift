import ShowcaseCore

/// Every `Roster.Get` now waiting for a warming roster (``SettleWait``), by edition and id, at most ``limit`` in
/// all: a part of ``DaemonState``.
///
/// An edition's waits share one fetch: the first wait starts it (``admit(_:_:)`` says so), and its end settles
/// them all (``settleAll(_:)``). A wait that ends on its own — timer, or its caller hanging up — leaves the books at
/// once (``remove(_:_:)``), so nothing a client sends or abandons outlives the limit. Taking a wait off the books is
/// what ends it: whoever takes it answers it, and a second end finds nothing.
struct WaitBook: Sendable {
    /// Most waits at once, across every client and edition.
    let limit: Int
    private var byEdition: [StorefrontEdition: [SettleWait.ID: SettleWait]] = [:]
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
        byEdition[edition, default: [:]][wait.id] = wait
        return first
    }

    /// Takes the wait named `id` off the books and returns it; nil when it already ended.
    mutating func remove(_ id: SettleWait.ID, _ edition: StorefrontEdition) -> SettleWait? {
        guard let wait = byEdition[edition]?.removeValue(forKey: id) else { return nil }
        count -= 1
        if byEdition[edition]?.isEmpty == true { byEdition[edition] = nil }
        return wait
    }

    /// Takes every wait for `edition` off the books (its fetch finished): the caller ends them with an answer.
    mutating func settleAll(_ edition: StorefrontEdition) -> [SettleWait] {
        let waits = byEdition.removeValue(forKey: edition) ?? [:]
        count -= waits.count
        return Array(waits.values)
    }

    /// Whether the wait named `id` is still booked for `edition`.
    func holds(_ id: SettleWait.ID, _ edition: StorefrontEdition) -> Bool { byEdition[edition]?[id] != nil }
}
