import Dispatch
import Synchronization

/// `whenOutputDrained` callbacks whose replies are written, waiting to run on ``ServerConnection/drainQueue``:
/// one dispatch block runs every callback queued until it starts.
///
/// A thousand `Watch` streams sent the same revision drain one after another as the loop writes them. With a block
/// per callback, every write was followed by a dispatch wake-up (a futex call and, on a busy core, a context
/// switch to the drain queue's thread) between the loop's writes (perf trace of the fan-out, BENCHMARKS.md issue
/// 13). Queued here, the loop keeps writing and the drain queue takes the callbacks in batches, still in the order
/// they drained.
final class DrainedCallbacks: Sendable {
    private struct Batch {
        var bodies: [@Sendable () -> Void] = []
        var scheduled = false
    }

    private let batch = Mutex(Batch())
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Queues `body` to run on the queue after the callbacks queued before it.
    func run(_ body: @escaping @Sendable () -> Void) {
        let schedule = batch.withLock { batch in
            batch.bodies.append(body)
            defer { batch.scheduled = true }
            return !batch.scheduled
        }
        guard schedule else { return }
        queue.async { [self] in
            let bodies = batch.withLock { batch in
                batch.scheduled = false
                defer { batch.bodies = [] }
                return batch.bodies
            }
            for body in bodies { body() }
        }
    }
}
