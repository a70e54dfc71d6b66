import Dispatch
import Locking

/// That the event loop has ended, told once to every thread blocked on it and every task awaiting it: the server's
/// `shutdown` and `wait()` block on it, ``VarlinkServer/waitUntilStopped()`` awaits it, and nobody polls a flag.
final class LoopCompletion: @unchecked Sendable {
    /// One party waiting for the end: a blocked thread (woken by its semaphore) or a suspended task.
    private enum Waiter {
        case thread(DispatchSemaphore)
        case task(CheckedContinuation<Void, Never>)
    }

    private struct State {
        var finished = false
        var waiters: [Waiter] = []
    }

    private let state = Lock(State())

    /// Whether the loop has ended.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Marks the loop ended and wakes everyone waiting; later calls do nothing.
    func finish() {
        let waiters = state.withLock { state -> [Waiter] in
            guard !state.finished else { return [] }
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            switch waiter {
            case .thread(let semaphore): semaphore.signal()
            case .task(let continuation): continuation.resume()
            }
        }
    }

    /// Blocks the calling thread until ``finish()``.
    func wait() {
        let semaphore = DispatchSemaphore(value: 0)
        let finished = state.withLock { state -> Bool in
            if !state.finished { state.waiters.append(.thread(semaphore)) }
            return state.finished
        }
        if !finished { semaphore.wait() }
    }

    /// Suspends until ``finish()``, without holding a thread.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state -> Bool in
                if !state.finished { state.waiters.append(.task(continuation)) }
                return state.finished
            }
            if finished { continuation.resume() }
        }
    }
}
