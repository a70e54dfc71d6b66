import CSystem
import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Admission: listening sockets, accepting within `maxConnections`, and registering each new connection.
extension ServerLoop {
    /// Watches a listening socket; its epoll tag is `listenerTag` plus its index in `listeners`.
    func addListener(_ fd: Int32) {
        let tag = ServerLoop.listenerTag | UInt64(listeners.count)
        listeners.append(fd)
        _ = csys_epoll_add(epollFD, fd, UInt32(CSYS_EPOLLIN), tag)
    }

    /// Accepts what is pending on `listener`, at most 64 per wake-up so connections' I/O is not starved; a
    /// client beyond `maxConnections` is accepted and closed at once, so it fails fast instead of waiting.
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
                    if dropped >= 0 { _ = csys_close(dropped) }
                    reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
                }
                return
            }
            if fd < 0 { return }
            if connections.count >= limits.maxConnections {
                _ = csys_close(fd)
                continue
            }
            register(fd: fd)
        }
    }

    /// Starts serving a connected socket (accepted, or adopted through the mailbox), with its peer's
    /// credentials taken now, once.
    func register(fd: Int32) {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        let peer =
            csys_peer_credentials(fd, &pid, &uid, &gid) == 0
            ? PeerCredentials(pid: pid, uid: uid, gid: gid) : PeerCredentials.unknown
        let id = nextConnectionID
        nextConnectionID += 1
        let connection = ServerConnection(id: id, fd: fd, peer: peer, now: ServerLoop.now())
        guard csys_epoll_add(epollFD, fd, UInt32(CSYS_EPOLLIN | CSYS_EPOLLRDHUP), id) == 0 else {
            _ = csys_close(fd)
            return
        }
        connections[id] = connection
        publishCount()
    }

    /// Publishes the connection count for `VarlinkServer.connectionCount`, read on other threads.
    func publishCount() {
        connectionCountLock.lock()
        publishedConnectionCount = connections.count
        connectionCountLock.unlock()
    }
}
