/// One accepted client, confined to the event-loop thread.
final class ServerConnection {
    /// A call awaiting its final reply, in call order. Replies of calls behind the head are
    /// held in `buffered` until every earlier call has finished.
    struct Slot {
        let sequence: UInt64
        var buffered: [UInt8] = []
        var finished = false
        var responder: VarlinkResponder?
    }

    let id: UInt64
    let fd: Int32
    let peer: PeerCredentials
    var input: [UInt8] = []
    var output: [UInt8] = []
    var outputOffset = 0
    var slots: [Slot] = []
    /// Bytes held in `slots[…].buffered`, counted against the pending-output limit.
    var bufferedBytes = 0
    var nextSequence: UInt64 = 0
    var lastActivity: UInt64
    /// EPOLLOUT is registered (only while output is pending).
    var watchingWrite = false
    /// The peer shut down its sending side: finish pending replies, then close.
    var inputClosed = false
    var isOpen = true
    /// `whenOutputDrained` callbacks, run by `runDrainWaiters()` once their call's replies are written.
    var drainWaiters: [DrainWaiter] = []

    init(id: UInt64, fd: Int32, peer: PeerCredentials, now: UInt64) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.lastActivity = now
    }

    var hasPendingOutput: Bool { outputOffset < output.count }

    /// Reply bytes this peer has not read yet, written or held back.
    var pendingBytes: Int { output.count - outputOffset + bufferedBytes }

    /// Nothing in flight and nothing to write.
    var isQuiet: Bool { slots.isEmpty && !hasPendingOutput }

    /// Routes reply bytes for call `sequence` into the output (if it is the oldest open call)
    /// or into its slot's buffer; on the head's final reply, releases what later calls queued.
    func deliver(sequence: UInt64, bytes: [UInt8], final: Bool) {
        guard let head = slots.first, sequence >= head.sequence else { return }
        let position = Int(sequence - head.sequence)
        guard position < slots.count else { return }
        if position > 0 {
            slots[position].buffered.append(contentsOf: bytes)
            bufferedBytes += bytes.count
            if final { slots[position].finished = true }
            return
        }
        output.append(contentsOf: bytes)
        guard final else { return }
        slots.removeFirst()
        while !slots.isEmpty {
            if !slots[0].buffered.isEmpty {
                bufferedBytes -= slots[0].buffered.count
                output.append(contentsOf: slots[0].buffered)
                slots[0].buffered = []
            }
            guard slots[0].finished else { break }
            slots.removeFirst()
        }
    }
}
