import Dispatch
import Locking

/// `whenOutputDrained` callbacks whose replies are written, handed to ``ServerConnection/drainQueue`` once per
/// wake-up of the event loop: one dispatch block runs every callback the loop's writes released, in order.
///
/// A thousand `Watch` streams sent the same revision drain one after another as the loop writes them; a block per
/// callback would wake the drain queue's thread (a futex call, and on a busy core a context switch) between the
/// loop's writes, once per subscriber. So the loop queues them with ``add(_:)`` while it writes and calls
/// ``dispatch()`` when its writes for this wake-up are done.
final class DrainedCallbacks: Sendable {
    private struct Pending {
        var bodies: [@Sendable () -> Void] = []
        var scheduled = false
    }

    private let pending = Lock(Pending())
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Queues `body` to run after the callbacks queued before it, at the next ``dispatch()``.
    func add(_ body: @escaping @Sendable () -> Void) {
        pending.withLock { $0.bodies.append(body) }
    }

    /// Runs everything queued so far on the queue, in one block (none when nothing is queued, or when a block that
    /// has not started yet will take it).
    func dispatch() {
        let schedule = pending.withLock { pending in
            guard !pending.bodies.isEmpty, !pending.scheduled else { return false }
            pending.scheduled = true
            return true
        }
        guard schedule else { return }
        queue.async { [self] in
            let bodies = pending.withLock { pending in
                pending.scheduled = false
                defer { pending.bodies = [] }
                return pending.bodies
            }
            for body in bodies { body() }
        }
    }
}
