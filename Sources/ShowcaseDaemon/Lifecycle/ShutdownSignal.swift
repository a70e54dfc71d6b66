import Locking

/// The moment graceful shutdown begins, as a one-shot event every lifecycle service can wait for.
final class ShutdownSignal: Sendable {
    private let state = Lock<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Whether shutdown has begun.
    var isFired: Bool { state.withLock { $0.fired } }

    /// Begins shutdown: every ``wait()`` returns. Firing again does nothing.
    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once shutdown has begun.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state -> Bool in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }

    /// Runs `body` until shutdown begins, then cancels it and waits for it to wind down (a loop that checks for
    /// cancellation between jobs finishes the job in hand first).
    func cancelling(_ body: @escaping @Sendable () async -> Void) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await body() }
            await wait()
            group.cancelAll()
        }
    }
}
