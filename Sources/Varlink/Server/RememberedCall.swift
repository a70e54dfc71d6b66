#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// One call message's bytes and what they parsed to, shared by the loop's ``CallMemo`` and the connection that
/// sent it last (`ServerConnection.lastCall`).
///
/// A class so that both hold the same copy: when a connection's call is found in the memo (varied calls: each one
/// differs from the previous on its connection, but recurs across connections), the connection keeps a reference
/// to the memo's entry instead of copying the bytes into an array of its own — one allocation and one copy less
/// per call.
///
/// Everything here is a function of the bytes alone, so it is kept with them: the envelope, the route the loop
/// found for its method (a loop's service never changes), and what the handler derived from the parameters
/// (``VarlinkCall/remembered(_:)``). A varied call then costs what a repeated one does: no envelope read, no
/// route lookup, no parameter decoding.
///
/// Confined to the event-loop thread that made it: `route` is used there only, and ``derived()`` and
/// ``keep(_:)`` answer as if nothing were kept when called from any other thread (a handler that hands the call
/// to a task), so no lock is needed, nor an atomic: the kept value is a plain field, read on every call.
final class RememberedCall: @unchecked Sendable {
    /// Longer messages are parsed every time rather than kept.
    static let maxBytes = 1024

    let bytes: [UInt8]
    let fields: [String: JSONValue]
    /// The call's envelope, nil when it has no string `method` (the loop closes such a connection).
    let envelope: CallEnvelope?
    /// The route the loop found for `envelope.method` the first time (event-loop thread only).
    var route: VarlinkInterface.Route?
    /// What the handler derived from the parameters alone, the first time it asked.
    private var derivedValue: AnyObject?
    /// The event-loop thread, which made this entry.
    private let owner = pthread_self()

    init(bytes: [UInt8], fields: [String: JSONValue]) {
        self.bytes = bytes
        self.fields = fields
        envelope = CallEnvelope(fields)
    }

    /// What a handler kept for this message, if anything and if asked on the event-loop thread.
    func derived() -> AnyObject? {
        guard pthread_equal(owner, pthread_self()) != 0 else { return nil }
        return derivedValue
    }

    /// Keeps `value` for this message unless something is kept already, on the event-loop thread only; returns
    /// what is kept (or `value` itself, off that thread).
    func keep(_ value: AnyObject) -> AnyObject {
        guard pthread_equal(owner, pthread_self()) != 0 else { return value }
        if let derivedValue { return derivedValue }
        derivedValue = value
        return value
    }

    /// Whether `other` is the same message, byte for byte.
    func matches(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == other.count, let right = other.baseAddress else { return false }
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, right, other.count) == 0 }
    }
}
