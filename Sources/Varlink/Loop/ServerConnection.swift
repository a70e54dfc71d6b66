import FoundationEssentials

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

    let id: UInt64
    let fd: Int32
    let peer: PeerCredentials
    /// The start of a message that spans reads (no NUL yet). Exclusivity is not checked at run time: only the
    /// event-loop thread touches it, and no access to it calls out (a message is moved out of it before its handler
    /// runs), yet it is read for every message.
    @exclusivity(unchecked) var input: [UInt8] = []
    /// The last call message this connection sent, and what it parsed to. A client polling the same query sends
    /// the same bytes every time; comparing them is far cheaper than parsing them again into dictionaries (the
    /// largest cost of a cached `Get` after the kernel's).
    var lastCall: RememberedCall?
    /// Reply messages waiting to be written, in the order the peer must read them.
    ///
    /// Exclusivity is not checked at run time: only the event-loop thread touches it, and no `PendingWrites`
    /// method calls back into the connection, so no two accesses can overlap. The check would be the most
    /// frequent in the hot path.
    @exclusivity(unchecked) var output = PendingWrites()
    /// The calls awaiting their final reply, oldest first. Exclusivity is not checked at run time either: only the
    /// event-loop thread touches it, always briefly and calling out to nothing, and a call touches it three times.
    @exclusivity(unchecked) var slots: [Slot] = []
    /// Bytes held in `slots[…].buffered`, counted against the pending-output limit.
    var bufferedBytes = 0
    var nextSequence: UInt64 = 0
    var lastActivity: UInt64
    /// EPOLLOUT is registered (only while output is pending).
    var watchingWrite = false
    /// The peer shut down its sending side: finish pending replies, then close.
    var inputClosed = false
    var isOpen = true
    /// Admitted into the privileged reserve: may call only the reserve's interfaces.
    var inReserve = false
    /// `input.count` as last added to the server-wide input total.
    var accountedInput = 0
    /// `pendingBytes` as last added to the server-wide output total.
    var accountedOutput = 0
    /// `whenOutputDrained` callbacks, run by `runDrainWaiters()` once their call's replies are written.
    /// Exclusivity is not checked at run time, for the reason given at `output`.
    @exclusivity(unchecked) var drainWaiters: [DrainWaiter] = []

    init(id: UInt64, fd: Int32, peer: PeerCredentials, now: UInt64) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.lastActivity = now
    }

    var hasPendingOutput: Bool { !output.isEmpty }

    /// Reply bytes this peer has not read yet, written or held back.
    var pendingBytes: Int { output.bytes + bufferedBytes }

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
        output.append(bytes)
        guard final else { return }
        removeHeadSlot()
        while !slots.isEmpty {
            if !slots[0].buffered.isEmpty {
                for chunk in slots[0].buffered {
                    bufferedBytes -= chunk.count
                    output.append(chunk)
                }
                slots[0].buffered = []
            }
            guard slots[0].finished else { break }
            removeHeadSlot()
        }
    }

    /// Removes the oldest call's slot. Usually it is the only one (a client waits for each reply before its next
    /// call), and removing the last element does not go through the general `removeFirst`, which this would pay
    /// on every call.
    private func removeHeadSlot() {
        if slots.count == 1 {
            _ = slots.removeLast()
        } else {
            slots.removeFirst()
        }
    }

    // MARK: Calls

    /// The call message `bytes` as parsed: the previous call when the bytes are the same (a client polling one
    /// query sends identical messages), else the one `memo` remembers for the same bytes (from any connection of
    /// the loop), else parsed and remembered in both. A message longer than ``RememberedCall/maxBytes`` is parsed
    /// and kept nowhere. Nil when the message is not a JSON object.
    func call(_ bytes: UnsafeBufferPointer<UInt8>, memo: CallMemo) -> RememberedCall? {
        if let lastCall, lastCall.matches(bytes) { return lastCall }
        if let remembered = memo.call(for: bytes) {
            lastCall = remembered  // the memo's entry itself: no copy of the bytes
            return remembered
        }
        guard let message = try? JSONValue(parsing: bytes), case .object(let fields) = message else { return nil }
        guard bytes.count <= RememberedCall.maxBytes else {
            return RememberedCall(bytes: [], fields: fields)  // kept nowhere, so no bytes to compare
        }
        let call = RememberedCall(bytes: Array(bytes), fields: fields)
        memo.remember(call)
        lastCall = call
        return call
    }

    /// Opens a slot for a call that expects replies and returns its sequence number, or nil when `limit` calls
    /// are already awaiting their final reply.
    func beginCall(limit: Int) -> UInt64? {
        guard slots.count < limit else { return nil }
        let sequence = nextSequence
        nextSequence += 1
        slots.append(Slot(sequence: sequence))
        return sequence
    }

    /// Records the responder of the call opened last, so a close can tell it the peer is gone.
    func attachToNewestCall(_ responder: VarlinkResponder) {
        if let last = slots.indices.last { slots[last].responder = responder }
    }

    /// Marks the connection closed and drops everything it holds; returns the responders of calls still in
    /// flight, to be told (outside this bookkeeping) that their peer is gone.
    func discardAll() -> [VarlinkResponder] {
        isOpen = false
        let responders = slots.compactMap(\.responder)
        slots = []
        bufferedBytes = 0
        output = PendingWrites()
        input = []
        return responders
    }
}
