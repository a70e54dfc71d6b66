import Synchronization

/// A change counter for one storefront's answers, shared by the roster store (which bumps it) and the reply
/// cache (which keeps a reference next to each encoded reply and compares with one atomic load).
final class StorefrontStamp: Sendable {
    private let counter = Atomic<Int>(0)

    var value: Int { counter.load(ordering: .acquiring) }

    func bump() { counter.wrappingAdd(1, ordering: .releasing) }
}
