import CSystem
import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Admission: listening sockets, accepting within the connection caps (global, per uid, and the reserve for
/// privileged peers), registering each new connection, and the server-wide books on buffered bytes.
extension ServerLoop {
    /// Watches a listening socket; its epoll tag is `listenerTag` plus its index in `listeners`.
    func addListener(_ fd: Int32) {
        let tag = ServerLoop.listenerTag | UInt64(listeners.count)
        listeners.append(fd)
        _ = csys_epoll_add(epollFD, fd, UInt32(CSYS_EPOLLIN), tag)
    }

    /// Accepts what is pending on `listener`, at most 64 per wake-up so connections' I/O is not starved; a
    /// client beyond a cap is accepted, told it is busy and closed at once (see `register`), so it fails fast
    /// with a reason instead of waiting.
    func acceptAll(_ listener: Int32) {
        for _ in 0..<64 {
            let fd = csys_accept(listener)
            if fd == -EAGAIN || fd == -EWOULDBLOCK { return }
            if fd == -EMFILE || fd == -ENFILE {
                // Out of descriptors: use the reserve to accept and drop one client, so the
                // listener stops reporting readiness instead of spinning the loop.
                if reserveFD >= 0 {
                    _ = csys_close(reserveFD)
                    let dropped = csys_accept(listener)
                    if dropped >= 0 { refuse(dropped, reason: "the server is out of file descriptors") }
                    reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
                }
                return
            }
            if fd < 0 { return }
            register(fd: fd)
        }
    }

    /// Starts serving a connected socket (accepted, or adopted through the mailbox), with its peer's
    /// credentials taken now, once — or refuses it when a cap is reached.
    ///
    /// Admission: within `maxConnections` ordinary slots, at most `maxConnectionsPerUID` per uid. Beyond either
    /// cap a privileged peer gets one of `reservedConnections` slots, which serve only `reserveInterfaces`;
    /// anyone else is refused with `ServiceBusy`. A descriptor the program handed over itself (`capped` false:
    /// `serve(connectedDescriptor:)`, e.g. the watchdog's probe) is counted but never refused.
    func register(fd: Int32, capped: Bool = true) {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        let peer =
            csys_peer_credentials(fd, &pid, &uid, &gid) == 0
            ? PeerCredentials(pid: pid, uid: uid, gid: gid) : PeerCredentials.unknown
        let fromUID = connectionsPerUID[peer.uid, default: 0]
        var inReserve = false
        if capped,
            connections.count - reserveInUse >= limits.maxConnections || fromUID >= limits.maxConnectionsPerUID
        {
            guard reserveInUse < limits.reservedConnections, limits.isPrivileged(peer) else {
                let reason =
                    fromUID >= limits.maxConnectionsPerUID
                    ? "too many connections from uid \(peer.uid): at most \(limits.maxConnectionsPerUID)"
                    : "too many connections: at most \(limits.maxConnections)"
                return refuse(fd, reason: reason)
            }
            inReserve = true
        }
        let id = connections.makeID(fd: fd)
        let connection = ServerConnection(id: id, fd: fd, peer: peer, now: now())
        connection.inReserve = inReserve
        guard csys_epoll_add(epollFD, fd, UInt32(CSYS_EPOLLIN | CSYS_EPOLLRDHUP), id) == 0 else {
            _ = csys_close(fd)
            return
        }
        connections.insert(connection)
        connectionsPerUID[peer.uid] = fromUID + 1
        if inReserve { reserveInUse += 1 }
        publishCount()
    }

    /// Tells a client it was not admitted (a `ServiceBusy` error, as if it answered the client's first call) and
    /// closes it. The socket is new, so the short message fits its buffer; a client that already closed loses
    /// nothing it could have read.
    func refuse(_ fd: Int32, reason: String) {
        let bytes = EncodedReply(error: .serviceBusy(reason)).bytes
        _ = bytes.withUnsafeBytes { csys_send(fd, $0.baseAddress, $0.count) }
        _ = csys_close(fd)
    }

    /// Forgets `connection` in the per-uid, reserve and buffer books (it is being closed).
    func release(_ connection: ServerConnection) {
        let uid = connection.peer.uid
        let remaining = connectionsPerUID[uid, default: 1] - 1
        connectionsPerUID[uid] = remaining > 0 ? remaining : nil
        if connection.inReserve { reserveInUse -= 1 }
        bufferedInput -= connection.accountedInput
        bufferedOutput -= connection.accountedOutput
        connection.accountedInput = 0
        connection.accountedOutput = 0
    }

    /// Brings the server-wide input total up to date with what `connection` now holds; false when that takes it
    /// over `maxBufferedInputBytes` (the caller closes this connection, the one that grew).
    func accountInput(_ connection: ServerConnection) -> Bool {
        let held = connection.input.count
        bufferedInput += held - connection.accountedInput
        connection.accountedInput = held
        return held == 0 || bufferedInput <= limits.maxBufferedInputBytes
    }

    /// Brings the server-wide output total up to date with what `connection` now queues; false when that takes
    /// it over `maxBufferedOutputBytes` (the caller closes this connection, the one that grew).
    func accountOutput(_ connection: ServerConnection) -> Bool {
        let held = connection.pendingBytes
        let grew = held > connection.accountedOutput
        bufferedOutput += held - connection.accountedOutput
        connection.accountedOutput = held
        return !grew || bufferedOutput <= limits.maxBufferedOutputBytes
    }

    /// Whether a connection in the reserve may call `method` (its interface is in `reserveInterfaces`).
    func reserveAllows(_ method: String) -> Bool {
        guard let dot = method.lastIndex(of: ".") else { return false }
        return limits.reserveInterfaces.contains(String(method[..<dot]))
    }

    /// Publishes the connection count for `VarlinkServer.connectionCount`, read on other threads.
    func publishCount() {
        connectionCountLock.withLock { _ in publishedConnectionCount = connections.count }
    }
}
