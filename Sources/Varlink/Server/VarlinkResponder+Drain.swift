import FoundationEssentials

extension VarlinkResponder {
    /// Runs `body` once, on a serial queue shared by all connections (keep it short: hand real work to your
    /// own queue), when every reply this call has sent so far has been written to the socket — or right
    /// away (still on that queue) if it already has.
    ///
    /// A stream whose replies supersede each other (the latest state of something) uses it to pace itself
    /// to its reader: it sends the next reply only from `body`, and meanwhile just remembers that the state
    /// changed. Without it every reply sent to a slow reader queues in the connection's output, so the
    /// reader gets a backlog of stale states and is finally dropped at the pending-output cap.
    ///
    /// "Written" means handed to the kernel: the kernel's socket buffers may still hold one reply the peer
    /// has not read. A reply held back behind an earlier, unfinished call on the same connection counts as
    /// unwritten. Register after sending (from any thread): replies and registrations from one thread are
    /// applied in order. If the connection closes first, `body` never runs — `onConnectionClosed` reports
    /// that. For a `oneway` call nothing is ever sent, so `body` runs right away.
    public func whenOutputDrained(_ body: @escaping @Sendable () -> Void) {
        if oneway {
            ServerConnection.drainQueue.async(execute: body)
            return
        }
        if isConnectionClosed { return }
        loop.whenDrained(connectionID: connectionID, sequence: sequence, body)
    }
}
