extension VarlinkServer {
    /// The monotonic time a server's idle timeouts (``Limits/idleTimeout``) and shutdown grace period are measured
    /// on. The default is `ContinuousClock`; an application that has a clock of its own passes it, so the socket's
    /// deadlines and the rest of its schedule agree, and its tests move one manual clock instead of sleeping.
    ///
    /// The event loop reads it once per wake-up (never per call) and still wakes at least once a second, so a
    /// clock moved by hand takes effect within a tick (a quarter of the idle timeout, 10 ms to 1 s).
    public struct Clock: Sendable {
        /// The current instant.
        public var now: @Sendable () -> ContinuousClock.Instant

        /// A clock that reads `now`.
        public init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
            self.now = now
        }

        /// `ContinuousClock.now`.
        public static let continuous = Clock { ContinuousClock.now }
    }
}
