import Dispatch
@preconcurrency import Glibc

/// Signals delivered as an async sequence: Dispatch signal sources on a private queue feed an `AsyncStream`, so
/// the lifecycle consumes them with `for await` instead of running callbacks. Signals that arrive before anyone
/// reads (while the cache loads) are kept, so an early SIGTERM still stops the daemon cleanly.
///
/// This type is deliberately nonisolated and lives in the library: closures created in `main.swift` are
/// inferred `@MainActor` and trap when a signal source runs them on another queue.
final class ProcessSignals: Sendable {
    /// The signals, in arrival order.
    let stream: AsyncStream<Int32>
    // Kept alive for the life of the handler; only read again by deinit.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    /// Takes over `numbers` (their default action no longer runs) and ignores SIGPIPE, so a client that hangs up
    /// mid-reply is a write error, not the daemon's death.
    init(_ numbers: [Int32]) {
        signal(SIGPIPE, SIG_IGN)
        let queue = DispatchQueue(label: "showcased.signals")
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
