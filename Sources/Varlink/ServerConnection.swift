import Foundation

/// One accepted client, confined to the event-loop thread.
final class ServerConnection {
    /// A call awaiting its final reply, in call order. Replies of calls behind the head are
    /// held in `buffered` until every earlier call has finished.
    struct Slot {
        let sequence: UInt64
        var buffered: [[UInt8]] = []
        var finished = false
        var responder: VarlinkResponder?
    }

    /// The last call message this connection sent, and what it parsed to. A client polling the same query
    /// sends the same bytes every time; comparing them is far cheaper than parsing them again into
    /// dictionaries (the largest cost of a cached `Get` after the kernel's).
    struct LastCall {
        /// Longer messages are parsed every time rather than kept.
        static let maxBytes = 1024

        let bytes: [UInt8]
        let fields: [String: JSONValue]

        func matches(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count == other.count, let right = other.baseAddress else { return false }
            return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, right, other.count) == 0 }
        }
    }

    let id: UInt64
    let fd: Int32
    let peer: PeerCredentials
    var input: [UInt8] = []
    var lastCall: LastCall?
    /// Reply messages waiting to be written, oldest first, each the very bytes the handler gave (a cached
    /// reply is not copied: the loop writes them with one gathering `sendmsg`). `outputOffset` bytes of the
    /// first one are already written.
    var output: [[UInt8]] = []
    var outputOffset = 0
    /// Bytes in `output` not yet written.
    var outputBytes = 0
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

    var hasPendingOutput: Bool { outputBytes > 0 }

    /// Reply bytes this peer has not read yet, written or held back.
    var pendingBytes: Int { outputBytes + bufferedBytes }

    /// Nothing in flight and nothing to write.
    var isQuiet: Bool { slots.isEmpty && !hasPendingOutput }

    /// Routes reply bytes for call `sequence` into the output (if it is the oldest open call)
    /// or into its slot's buffer; on the head's final reply, releases what later calls queued.
    func deliver(sequence: UInt64, bytes: [UInt8], final: Bool) {
        guard let head = slots.first, sequence >= head.sequence else { return }
        let position = Int(sequence - head.sequence)
        guard position < slots.count else { return }
        if position > 0 {
            slots[position].buffered.append(bytes)
            bufferedBytes += bytes.count
            if final { slots[position].finished = true }
            return
        }
        enqueue(bytes)
        guard final else { return }
        slots.removeFirst()
        while !slots.isEmpty {
            if !slots[0].buffered.isEmpty {
                for chunk in slots[0].buffered {
                    bufferedBytes -= chunk.count
                    enqueue(chunk)
                }
                slots[0].buffered = []
            }
            guard slots[0].finished else { break }
            slots.removeFirst()
        }
    }

    private func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        output.append(bytes)
        outputBytes += bytes.count
    }

    /// Drops `count` written bytes from the front of `output`.
    func consumeOutput(_ count: Int) {
        outputBytes -= count
        var remaining = outputOffset + count
        var finished = 0
        while finished < output.count, remaining >= output[finished].count {
            remaining -= output[finished].count
            finished += 1
        }
        if finished == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 64)
            outputOffset = 0
        } else {
            output.removeFirst(finished)
            outputOffset = remaining
        }
    }
}
