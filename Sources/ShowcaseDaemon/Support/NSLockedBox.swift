import Foundation

/// A value behind an `NSLock`, for the few places that need shared mutable state off the hot path
/// (timers kept alive, log condensation). Hot paths use confinement to the Varlink loop instead.
final class NSLockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
