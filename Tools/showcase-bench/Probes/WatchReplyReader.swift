@preconcurrency import Glibc

/// Splits one `Watch` subscriber's byte stream into replies and reads each reply's revision, cheaply.
///
/// The fan-out probe reads a thousand connections on one thread and stamps each reply when it is read; whatever it
/// spends per reply delays the stamps of every connection read after it, so the client's own time would count as the
/// daemon's latency. A Watch reply is about 13 KB and its keys are sorted, so `revision` comes after the whole `apps`
/// array, which is never walked byte by byte (BENCHMARKS.md). A reply that arrives whole is read in place from the
/// receive buffer (no copy), the end of each reply is found with `memchr`, and the revision is searched from the
/// reply's end. Only a reply split across reads is copied, once, into `pending`.
struct WatchReplyReader {
    /// The start of a reply whose NUL has not arrived yet.
    private(set) var pending: [UInt8] = []

    /// Calls `body` with the revision of every reply completed by `chunk` (nil for a reply without one, such as an
    /// error reply), in order.
    mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (Int?) -> Void) {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count {
            guard let found = memchr(base + start, 0, chunk.count - start) else {
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start...]))
                return
            }
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if pending.isEmpty {
                body(Self.revision(in: UnsafeBufferPointer(rebasing: chunk[start..<end])))
            } else {
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<end]))
                body(pending.withUnsafeBufferPointer { Self.revision(in: $0) })
                pending = []
            }
            start = end + 1
        }
    }

    private static let key = Array(#""revision":"#.utf8)

    /// The `"revision":N` of one reply (without its NUL); nil when it has none. Searched from the end, where a
    /// Watch reply keeps it (keys are sorted: `apps`, `revision`, `state`, `storefront`). The quoted key followed
    /// by a colon cannot occur inside a JSON string (a quote there is escaped), so the first match from either end
    /// is the member.
    static func revision(in message: UnsafeBufferPointer<UInt8>) -> Int? {
        let key = Self.key
        guard message.count > key.count else { return nil }
        var start = message.count - key.count
        while start >= 0 {
            if message[start] == key[0], message[start + key.count - 1] == key[key.count - 1],
                key.indices.allSatisfy({ message[start + $0] == key[$0] })
            {
                var index = start + key.count
                var value = 0
                var digits = 0
                while index < message.count, message[index] >= 0x30, message[index] <= 0x39, digits < 18 {
                    value = value * 10 + Int(message[index] - 0x30)
                    index += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            start -= 1
        }
        return nil
    }
}
