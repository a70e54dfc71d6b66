/// A `Lock` in a class, for state that escaping closures share (a flag a stream's termination handler reads, a
/// timer kept alive): a `Lock` itself cannot be captured, being noncopyable. Off the hot path only; hot paths
/// confine their state to one thread instead.
public final class LockedBox<Value>: @unchecked Sendable {
    private let lock = Lock(())
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the boxed value.
    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        try lock.withLock { _ throws(E) in
            nonisolated(unsafe) let result = try body(&value)
            return result
        }
    }
}
