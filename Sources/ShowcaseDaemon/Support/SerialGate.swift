/// Lets one async operation through at a time, in arrival order: reloads (by `Admin.Reload` and SIGHUP) never
/// interleave, even across their suspension points, where an actor alone would let a second one in.
actor SerialGate {
    private var busy = false
    private var queued: [CheckedContinuation<Void, Never>] = []

    /// Runs `operation` once every operation that entered before it has finished.
    func run<Result: Sendable>(_ operation: @Sendable () async -> Result) async -> Result {
        if busy {
            await withCheckedContinuation { queued.append($0) }
        } else {
            busy = true
        }
        defer {
            if queued.isEmpty { busy = false } else { queued.removeFirst().resume() }
        }
        return await operation()
    }
}
