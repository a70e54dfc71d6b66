extension ServerLoop {
    /// Registers a drain waiter for call `sequence` on the event loop (through the mailbox from other
    /// threads, so it is applied after the replies that thread sent before it).
    func whenDrained(connectionID: UInt64, sequence: UInt64, _ body: @escaping @Sendable () -> Void) {
        guard isOnLoopThread else {
            post(.drained(connectionID: connectionID, sequence: sequence, body: body))
            return
        }
        guard let connection = connections[connectionID], connection.isOpen else { return }
        connection.drainWaiters.append(ServerConnection.DrainWaiter(sequence: sequence, body: body))
        connection.runDrainWaiters()
    }
}
