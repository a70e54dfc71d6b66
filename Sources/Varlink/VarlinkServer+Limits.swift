extension VarlinkServer {
    /// Per-client limits. Each one protects every *other* client: the offender's connection
    /// is closed, nobody else notices.
    public struct Limits: Sendable {
        /// Largest accepted message (JSON bytes before the NUL). Default 1 MiB. A peer that
        /// sends more without a terminator is disconnected rather than buffered without bound.
        public var maxMessageBytes: Int
        /// Most simultaneous connections. Default 1024. Connections beyond the cap are
        /// accepted and closed at once, so they fail fast instead of hanging in the backlog.
        public var maxConnections: Int
        /// A connection with no call in flight and no traffic for this long is closed.
        /// Default 60 s; zero disables it. A call in flight (for example a `more` stream) keeps
        /// the connection open; a half-sent message does not.
        public var idleTimeout: Duration
        /// Most reply bytes queued for a peer that does not read. Default 16 MiB; beyond it
        /// the connection is closed so a stalled reader cannot grow the server's memory.
        /// Counts replies written but unread *and* replies held back behind an earlier call.
        public var maxPendingOutputBytes: Int
        /// Most calls one connection may have awaiting their final reply. Default 4096.
        /// Pipelining deeper than this closes the connection instead of queueing without bound.
        public var maxCallsInFlight: Int

        /// The documented defaults, each overridable (tests lower them to reach each limit quickly).
        public init(
            maxMessageBytes: Int = 1 << 20, maxConnections: Int = 1024, idleTimeout: Duration = .seconds(60),
            maxPendingOutputBytes: Int = 16 << 20, maxCallsInFlight: Int = 4096
        ) {
            self.maxMessageBytes = maxMessageBytes
            self.maxConnections = maxConnections
            self.idleTimeout = idleTimeout
            self.maxPendingOutputBytes = maxPendingOutputBytes
            self.maxCallsInFlight = maxCallsInFlight
        }
    }
}
