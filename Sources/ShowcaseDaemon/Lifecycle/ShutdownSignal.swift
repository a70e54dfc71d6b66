/// The moment graceful shutdown begins, as a one-shot event every lifecycle service can wait for.
///
/// It keeps nothing of its own: whether shutdown has begun, and who waits for it, is the state's
/// (``DaemonState/shutdown``, a ``ShutdownLatch``), changed by two transitions under the owner's one lock —
/// ``DaemonState/beginShutdown()`` and ``DaemonState/awaitShutdown(_:)`` — whose ``StateChange`` hands the waiters
/// to resume to ``StateOwner``, which resumes them outside the lock. So firing twice, or waiting after the fire,
/// is decided by the state at one instant, and tested as a transition.
struct ShutdownSignal: Sendable {
    /// The owner of the state whose ``DaemonState/shutdown`` this is.
    let state: StateOwner

    /// Whether shutdown has begun.
    var isFired: Bool { state.read { $0.shutdown.begun } }

    /// Begins shutdown: every ``wait()`` returns. Firing again does nothing.
    func fire() {
        state.update { state, _ in state.beginShutdown() }
    }

    /// Returns once shutdown has begun.
    func wait() async {
        let state = self.state
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            state.update { state, _ in state.awaitShutdown(waiter) }
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
