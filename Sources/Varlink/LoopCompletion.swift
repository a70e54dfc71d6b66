import Foundation

/// That the event loop has ended, told once to every thread blocked on it and every task awaiting it: the server's
/// `shutdown` and `wait()` block on it, ``VarlinkServer/waitUntilStopped()`` awaits it, and nobody polls a flag.
final class LoopCompletion: @unchecked Sendable {
    /// Guards `finished` and `waiters`, and wakes the blocked threads.
    private let condition = NSCondition()
    private var finished = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Whether the loop has ended.
    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// Marks the loop ended and wakes everyone waiting; later calls do nothing.
    func finish() {
        condition.lock()
        let resumed = finished ? [] : waiters
        finished = true
        waiters = []
        condition.broadcast()
        condition.unlock()
        for waiter in resumed { waiter.resume() }
    }

    /// Blocks the calling thread until ``finish()``.
    func wait() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Suspends until ``finish()``, without holding a thread.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            if finished {
                condition.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                condition.unlock()
            }
        }
    }
}
