import Dispatch

extension ServerConnection {
    /// A `VarlinkResponder.whenOutputDrained` callback waiting for call `sequence`'s replies to be written.
    struct DrainWaiter {
        let sequence: UInt64
        let body: @Sendable () -> Void
    }

    /// Whether every byte call `sequence` has sent so far has been written to the socket. A call behind the
    /// head keeps its replies in its slot until it becomes the head; the head's and finished calls' replies
    /// are in `output`, so those are written once `output` is.
    func hasWritten(sequence: UInt64) -> Bool {
        if let head = slots.first, sequence > head.sequence {
            let position = Int(sequence - head.sequence)
            if position < slots.count { return slots[position].buffered.isEmpty }
        }
        return !hasPendingOutput
    }

    /// Where drained callbacks run: off the event loop, and not on the global pool, which threads blocked
    /// in synchronous work can exhaust (it is as wide as the CPU count) and so delay a stream indefinitely.
    static let drainQueue = DispatchQueue(label: "varlink.output-drained")

    /// The drained callbacks on their way to `drainQueue`: the loop hands them over once per wake-up, after its
    /// writes (every connection of every loop shares it).
    static let drained = DrainedCallbacks(queue: drainQueue)

    /// Queues for `drainQueue` (never the event loop) every waiter whose call's replies are all written, and keeps
    /// the others; the loop dispatches what it queued at the end of its wake-up (`flushDirty`). Called where output
    /// may have become empty.
    func runDrainWaiters() {
        guard !drainWaiters.isEmpty else { return }
        var waiting: [DrainWaiter] = []
        for waiter in drainWaiters {
            if hasWritten(sequence: waiter.sequence) {
                ServerConnection.drained.add(waiter.body)
            } else {
                waiting.append(waiter)
            }
        }
        drainWaiters = waiting
    }
}
