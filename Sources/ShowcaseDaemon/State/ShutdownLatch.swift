/// Graceful shutdown as a part of ``DaemonState``: whether it has begun, and the lifecycle services waiting for it
/// (``ShutdownSignal``). It begins once; a waiter that comes after it has begun is handed back to go on at once.
struct ShutdownLatch: Sendable {
    /// Whether shutdown has begun.
    private(set) var begun = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Begins shutdown: returns every waiter, to resume. Beginning again returns none.
    mutating func begin() -> [CheckedContinuation<Void, Never>] {
        guard !begun else { return [] }
        begun = true
        defer { waiters = [] }
        return waiters
    }

    /// Books `waiter` until shutdown begins; returns it (to resume now) when it has begun already.
    mutating func wait(_ waiter: CheckedContinuation<Void, Never>) -> CheckedContinuation<Void, Never>? {
        guard !begun else { return waiter }
        waiters.append(waiter)
        return nil
    }
}
