#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Recently parsed call messages, shared by every connection of one event loop.
///
/// A client that varies its queries (a web backend asking for many storefronts, locales and platforms) sends
/// a different message each time on its connection, so the connection's own last-call memo never matches; yet
/// the set of distinct messages is small and they recur across connections. This memo keeps the parsed members
/// of recent messages in a two-way table: a message hashes to a pair of slots, the one used last first, and a hit
/// is a byte comparison with no parse and no allocation. A miss parses as before and takes the pair's first slot,
/// moving the other message to the second (the pair's older one leaves). Two ways, not one: with the 60 messages of
/// the bench's varied calls in 256 direct-mapped slots, the few that shared a slot pushed each other out on every
/// turn, and about one call in ten was parsed again (callgrind, BENCHMARKS.md issue 13). Bounded: `slotCount`
/// entries of at most `maxBytes` bytes each. Confined to the event-loop thread, like the connections, so it has
/// no lock.
final class CallMemo {
    /// Longer messages are parsed every time rather than kept.
    static let maxBytes = RememberedCall.maxBytes

    private var slots: [RememberedCall?]
    private let mask: Int

    /// A memo of `slotCount` slots (at least two), rounded up to a power of two.
    init(slotCount: Int = 256) {
        var count = 2
        while count < slotCount { count <<= 1 }
        slots = Array(repeating: nil, count: count)
        mask = count - 2  // the even index of a pair
    }

    /// The message `bytes` as it was parsed when last seen, if its pair of slots still holds it.
    func call(for bytes: UnsafeBufferPointer<UInt8>) -> RememberedCall? {
        guard bytes.count <= Self.maxBytes else { return nil }
        let first = Self.slot(of: bytes) & mask
        if let slot = slots[first], slot.matches(bytes) { return slot }
        guard let slot = slots[first + 1], slot.matches(bytes) else { return nil }
        slots.swapAt(first, first + 1)  // used last: first in its pair
        return slot
    }

    /// Keeps `call` for its bytes in the first slot of its pair; the pair's first message moves to the second.
    func remember(_ call: RememberedCall) {
        guard call.bytes.count <= Self.maxBytes else { return }
        let first = call.bytes.withUnsafeBufferPointer { Self.slot(of: $0) } & mask
        slots[first + 1] = slots[first]
        slots[first] = call
    }

    /// FNV-1a over the message: cheap, and a collision only costs a parse.
    private static func slot(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
