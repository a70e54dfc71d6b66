import CSystem

/// Starts `body` on a new detached thread: what `Foundation.Thread { … }.start()` did, without linking Foundation.
///
/// For blocking work (a socket loop, a blocking call per client) that must not run on Dispatch's global queues,
/// which on Linux also run Swift concurrency's tasks: blocking them starves unrelated work. `name` (at most 15
/// bytes are kept) is what `ps -L`, `top -H` and a debugger show for the thread. A thread that cannot be created
/// (the process is out of threads or memory) is a fatal error, as it was with `Thread.start()`.
public func startDetachedThread(named name: String? = nil, _ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    let result: Int32 =
        if let name {
            csys_thread_start(name, runThreadBody, context)
        } else {
            csys_thread_start(nil, runThreadBody, context)
        }
    guard result == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        fatalError("could not start a thread (error \(-result))")
    }
}

/// The closure a started thread runs, boxed to cross the C call as one pointer.
private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The C entry of every thread `startDetachedThread` starts: takes back the box's reference and runs its closure.
private func runThreadBody(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
}
