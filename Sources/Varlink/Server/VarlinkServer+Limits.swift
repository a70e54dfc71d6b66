extension VarlinkServer {
    /// Per-client and server-wide limits. Each one protects every *other* client: the offender's connection
    /// is closed or refused, nobody else notices.
    public struct Limits: Sendable {
        /// Largest accepted message (JSON bytes before the NUL). Default 1 MiB. A peer that
        /// sends more without a terminator is disconnected rather than buffered without bound.
        public var maxMessageBytes: Int
        /// Most simultaneous connections. Default 1024. A client beyond the cap is accepted, told
        /// ``VarlinkError/serviceBusyName`` and closed at once, so it fails fast with a reason instead of hanging
        /// in the backlog. Privileged peers may still use ``reservedConnections`` more.
        public var maxConnections: Int
        /// Most simultaneous connections from one uid. Default `Int.max` (no per-uid cap). Set below
        /// ``maxConnections`` so that one uid can never take every slot; a client beyond it is refused like one
        /// beyond ``maxConnections``.
        public var maxConnectionsPerUID: Int
        /// Connections kept for privileged peers (``isPrivileged``) once a cap is reached. Default 16. A connection
        /// admitted into this reserve may only call the interfaces in ``reserveInterfaces`` (others are answered
        /// ``VarlinkError/serviceBusyName``): the reserve exists so an administrator can always see what is going
        /// on, not to let one more client in.
        public var reservedConnections: Int
        /// The interfaces a connection in the reserve may call. Default: only `org.varlink.service`.
        public var reserveInterfaces: Set<String>
        /// Whether a peer may use the reserve. Default: nobody (no reserve). Asked at accept time, so a predicate that reads
        /// a reloadable setting takes effect for the next connection.
        public var isPrivileged: @Sendable (PeerCredentials) -> Bool
        /// Most bytes of half-received messages held across *all* connections. Default 32 MiB. A connection whose
        /// read takes the total beyond it is closed: many clients each sending almost `maxMessageBytes` and no
        /// terminator cannot together grow the server's memory without bound.
        public var maxBufferedInputBytes: Int
        /// Most reply bytes queued across *all* connections. Default 256 MiB. A connection whose replies take the
        /// total beyond it is closed, like one beyond its own ``maxPendingOutputBytes``.
        public var maxBufferedOutputBytes: Int
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
            maxMessageBytes: Int = 1 << 20, maxConnections: Int = 1024, maxConnectionsPerUID: Int = .max,
            reservedConnections: Int = 16, reserveInterfaces: Set<String> = ["org.varlink.service"],
            isPrivileged: @escaping @Sendable (PeerCredentials) -> Bool = { _ in false },
            maxBufferedInputBytes: Int = 32 << 20, maxBufferedOutputBytes: Int = 256 << 20,
            idleTimeout: Duration = .seconds(60), maxPendingOutputBytes: Int = 16 << 20, maxCallsInFlight: Int = 4096
        ) {
            self.maxMessageBytes = maxMessageBytes
            self.maxConnections = maxConnections
            self.maxConnectionsPerUID = maxConnectionsPerUID
            self.reservedConnections = reservedConnections
            self.reserveInterfaces = reserveInterfaces
            self.isPrivileged = isPrivileged
            self.maxBufferedInputBytes = maxBufferedInputBytes
            self.maxBufferedOutputBytes = maxBufferedOutputBytes
            self.idleTimeout = idleTimeout
            self.maxPendingOutputBytes = maxPendingOutputBytes
            self.maxCallsInFlight = maxCallsInFlight
        }
    }
}
