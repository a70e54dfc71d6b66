#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// One call message's bytes and the members they parsed to, shared by the loop's ``CallMemo`` and the connection
/// that sent it last (`ServerConnection.lastCall`).
///
/// A class so that both hold the same copy: when a connection's call is found in the memo (varied calls: each one
/// differs from the previous on its connection, but recurs across connections), the connection keeps a reference
/// to the memo's entry instead of copying the bytes into an array of its own — one allocation and one copy less
/// per call (callgrind, BENCHMARKS.md issue 13).
final class RememberedCall {
    /// Longer messages are parsed every time rather than kept.
    static let maxBytes = 1024

    let bytes: [UInt8]
    let fields: [String: JSONValue]

    init(bytes: [UInt8], fields: [String: JSONValue]) {
        self.bytes = bytes
        self.fields = fields
    }

    /// Whether `other` is the same message, byte for byte.
    func matches(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == other.count, let right = other.baseAddress else { return false }
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, right, other.count) == 0 }
    }
}
