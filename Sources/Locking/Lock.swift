import CSystem
import Synchronization

/// A `Synchronization.Mutex` that ThreadSanitizer sees: use it wherever the code would use `Mutex`.
///
/// On Linux, `Mutex` locks and unlocks inside `libswiftSynchronization.so`, which is not instrumented, so
/// ThreadSanitizer sees no order between two critical sections of the same mutex. It then reports every access
/// inside `withLock` as a race with the previous holder's, and — worse, because no suppression can tell it from a
/// real one — every object handed from one thread to another through a mutex: built on one thread, appended to a
/// locked inbox, taken out and used on another (`WatchHub`'s streams did this; `make sanitize` failed on it in CI).
/// `Lock` tells ThreadSanitizer about each critical section (acquire once locked, release before unlocking, on
/// the mutex's address), so what one holder did happens before what the next one does, as it really does. In a
/// build without ThreadSanitizer that is two tests of a null weak symbol; the locking is `Mutex`'s own.
public struct Lock<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: Mutex<Value>

    /// A lock guarding `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the guarded value, like `Mutex.withLock`.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // The mutex's address names it to ThreadSanitizer. It is taken before locking, and the annotations come
        // before and after every access to the value: ThreadSanitizer checks a Swift `inout` access where it
        // begins, so taking the value's address inside would itself be reported.
        let address = withUnsafePointer(to: mutex) { UnsafeRawPointer($0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            csys_sanitizer_acquire(address)
            defer { csys_sanitizer_release(address) }
            return try body(&value)
        }
    }
}

extension Lock: Sendable where Value: ~Copyable {}
