import Dispatch
@preconcurrency import Glibc

/// SIGTERM/SIGINT (graceful stop) and SIGHUP (reload) delivered through Dispatch signal sources on a
/// private queue.
///
/// This type is deliberately nonisolated and lives in the library: closures created in `main.swift` are
/// inferred `@MainActor` and trap when a signal source runs them on another queue.
public final class SignalHandler: Sendable {
    private let queue = DispatchQueue(label: "showcased.signals")
    private let sources: NSLockedBox<[DispatchSourceSignal]> = NSLockedBox([])

    /// Also ignores SIGPIPE, so a client that hangs up mid-reply is a write error, not the daemon's death.
    public init() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Runs `action` on the handler's queue each time `signal` arrives, instead of the default action.
    public func on(_ signalNumber: Int32, _ action: @escaping @Sendable () -> Void) {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
        source.setEventHandler(handler: action)
        source.resume()
        sources.withLock { $0.append(source) }
    }
}
