import Foundation
import Varlink

/// A monotonic clock that moves only when a test moves it, for a server's idle and shutdown deadlines: a test
/// advances it past a deadline instead of sleeping until one.
final class ManualServerClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = ContinuousClock.now

    /// The current instant.
    var instant: ContinuousClock.Instant { lock.withLock { current } }

    /// The clock a server is given.
    var serverClock: VarlinkServer.Clock { VarlinkServer.Clock { self.instant } }

    /// Moves the clock forward by `duration`.
    func advance(by duration: Duration) { lock.withLock { current += duration } }
}
