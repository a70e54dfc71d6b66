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
/// moving the other message to the second (the pair's older one leaves). Two ways and a thousand slots, so that the
/// few dozen messages a varied client sends rarely meet three in one pair: messages that outnumber their pair push
/// each other out on every turn and are parsed every time. Bounded: `slotCount` entries of at most
/// `maxBytes` bytes each. Confined to the event-loop thread, like the connections, so it has no lock (and no
/// run-time exclusivity check on `slots`: no method calls out while it holds them).
final class CallMemo {
    /// Longer messages are parsed every time rather than kept here (a connection still keeps its own last call, up to
    /// ``RememberedCall/maxBytes``). Any client can fill every slot, and a message parses to up to twenty times its
    /// size (nested one-element arrays), so the bound is what a real call needs — a `Get` with every parameter is
    /// under 250 bytes — not a kilobyte: 1,024 slots then hold at most about 10 MB.
    static let maxBytes = 512

    @exclusivity(unchecked) private var slots: [RememberedCall?]
    private let mask: Int

    /// A memo of `slotCount` slots (at least two), rounded up to a power of two.
    init(slotCount: Int = 1024) {
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

    /// FNV-1a-like over the message, eight bytes at a time, then a final mix so every byte reaches the low bits
    /// the slot index uses: cheap (eight bytes a step, never one: it runs for every call that differs from its
    /// connection's last), and a collision only costs a parse.
    private static func slot(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var offset = 0
        while offset &+ 8 <= bytes.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9e37_79b9_7f4a_7c15
            offset &+= 8
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01b3
            offset &+= 1
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }
}
