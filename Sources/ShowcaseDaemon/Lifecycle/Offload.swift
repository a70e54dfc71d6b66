import Dispatch

/// Runs blocking `work` (a socket drain, a decode pass, a synchronous probe) on a Dispatch queue and returns its
/// result, so it never occupies one of the few threads Swift concurrency's cooperative pool has.
func offload<Result: Sendable>(
    qos: DispatchQoS.QoSClass = .default, _ work: @escaping @Sendable () -> Result
) async -> Result {
    await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: qos).async { continuation.resume(returning: work()) }
    }
}
