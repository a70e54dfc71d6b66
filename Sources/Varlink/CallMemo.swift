#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Recently parsed call messages, shared by every connection of one event loop.
///
/// A client that varies its queries (a web backend asking for many storefronts, locales and platforms) sends
/// a different message each time on its connection, so the connection's own last-call memo never matches; yet
/// the set of distinct messages is small and they recur across connections. This memo keeps the parsed members
/// of recent messages in a direct-mapped table: a message hashes to one slot, and a hit is a byte comparison
/// with no parse and no allocation. A miss parses as before and takes the slot. Bounded: `slotCount` entries of
/// at most `maxBytes` bytes each. Confined to the event-loop thread, like the connections, so it has no lock.
final class CallMemo {
    /// Longer messages are parsed every time rather than kept.
    static let maxBytes = RememberedCall.maxBytes

    private var slots: [RememberedCall?]
    private let mask: Int

    /// A memo of `slotCount` slots, rounded up to a power of two.
    init(slotCount: Int = 256) {
        var count = 1
        while count < slotCount { count <<= 1 }
        slots = Array(repeating: nil, count: count)
        mask = count - 1
    }

    /// The message `bytes` as it was parsed when last seen, if its slot still holds it.
    func call(for bytes: UnsafeBufferPointer<UInt8>) -> RememberedCall? {
        guard bytes.count <= Self.maxBytes, let slot = slots[Self.slot(of: bytes) & mask], slot.matches(bytes)
        else { return nil }
        return slot
    }

    /// Keeps `call` for its bytes, replacing whatever shared its slot.
    func remember(_ call: RememberedCall) {
        guard call.bytes.count <= Self.maxBytes else { return }
        call.bytes.withUnsafeBufferPointer { slots[Self.slot(of: $0) & mask] = call }
    }

    /// FNV-1a over the message: cheap, and a collision only costs a parse.
    private static func slot(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
