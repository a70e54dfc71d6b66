import CSystem
@preconcurrency import Glibc

/// The transport floor: the simplest fast Varlink server there is, answering every call with the same
/// pre-encoded reply bytes.
///
/// It never parses a call — it counts NUL terminators and owes that many replies — so its calls/s is what
/// the socket, the kernel and the load generator allow on this machine: the ceiling the daemon is measured
/// against (BENCHMARKS.md). One thread, one level-triggered epoll loop (CSystem) over nonblocking sockets,
/// replies written with `writev` straight from one buffer: the shape a well-built daemon loop can approach
/// but not beat.
final class FloorServer {
    private let reply: UnsafeMutableRawBufferPointer
    private let listener: Int32
    private var connections: [Int32: FloorConnection] = [:]
    private let vectors = UnsafeMutablePointer<iovec>.allocate(capacity: 64)

    /// Serves `replyBytes` (a reply without its NUL; one is appended) on a new socket at `socketPath`.
    init(socketPath: String, replyBytes: [UInt8]) throws(BenchError) {
        var bytes = replyBytes
        while bytes.last == 0 { bytes.removeLast() }
        guard !bytes.isEmpty else { throw BenchError("the reply file is empty; capture a reply first") }
        bytes.append(0)
        reply = .allocate(byteCount: bytes.count, alignment: 16)
        reply.copyBytes(from: bytes)
        listener = try UnixSocket.listen(path: socketPath)
    }

    deinit {
        reply.deallocate()
        vectors.deallocate()
    }

    /// Serves until the process is killed.
    func run() -> Never {
        signal(SIGPIPE, SIG_IGN)
        let readBuffer = UnsafeMutableRawPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        let events = UnsafeMutablePointer<csys_event>.allocate(capacity: 256)
        let poller = csys_epoll_create()
        guard poller >= 0, csys_epoll_add(poller, listener, UInt32(CSYS_EPOLLIN), UInt64(listener)) >= 0 else {
            fatalError("epoll is unavailable: \(String(cString: strerror(-poller)))")
        }
        while true {
            let ready = csys_epoll_wait(poller, events, 256, -1)
            if ready <= 0 { continue }
            for index in 0..<Int(ready) {
                let fd = Int32(truncatingIfNeeded: events[index].data)
                let flags = events[index].events
                if fd == listener {
                    acceptAll(poller)
                    continue
                }
                guard let connection = connections[fd] else { continue }
                if flags & UInt32(CSYS_EPOLLIN | CSYS_EPOLLHUP | CSYS_EPOLLERR) != 0 {
                    guard readCalls(connection, into: readBuffer) else {
                        drop(connection)
                        continue
                    }
                }
                let wasWaiting = connection.waitingToWrite
                guard flush(connection) else {
                    drop(connection)
                    continue
                }
                // Watch for writability only while replies are held back by a full socket.
                connection.waitingToWrite = connection.pendingReplies > 0
                if connection.waitingToWrite != wasWaiting {
                    let interest = UInt32(CSYS_EPOLLIN) | (connection.waitingToWrite ? UInt32(CSYS_EPOLLOUT) : 0)
                    _ = csys_epoll_mod(poller, fd, interest, UInt64(fd))
                }
            }
        }
    }

    private func acceptAll(_ poller: Int32) {
        while true {
            let fd = csys_accept(listener)
            if fd < 0 { return }
            connections[fd] = FloorConnection(fd: fd)
            _ = csys_epoll_add(poller, fd, UInt32(CSYS_EPOLLIN), UInt64(fd))
        }
    }

    /// Reads once and adds a reply owed for every NUL seen. False when the peer is gone.
    private func readCalls(_ connection: FloorConnection, into buffer: UnsafeMutableRawPointer) -> Bool {
        let count = recv(connection.fd, buffer, 64 * 1024, 0)
        if count < 0 { return errno == EAGAIN || errno == EINTR }
        if count == 0 { return false }
        var offset = 0
        while offset < count, let found = memchr(buffer + offset, 0, count - offset) {
            connection.pendingReplies += 1
            offset = buffer.distance(to: found) + 1
        }
        return true
    }

    /// Writes owed replies until done or the socket is full. False when the peer is gone.
    private func flush(_ connection: FloorConnection) -> Bool {
        let length = reply.count
        let base = reply.baseAddress!
        while connection.pendingReplies > 0 {
            let count = min(connection.pendingReplies, 64)
            vectors[0] = iovec(
                iov_base: base + connection.offset, iov_len: length - connection.offset)
            for index in 1..<max(1, count) { vectors[index] = iovec(iov_base: base, iov_len: length) }
            let written = writev(connection.fd, vectors, Int32(count))
            if written < 0 { return errno == EAGAIN || errno == EINTR }
            var remaining = written + connection.offset
            let whole = remaining / length
            connection.pendingReplies -= whole
            remaining -= whole * length
            connection.offset = remaining
        }
        return true
    }

    private func drop(_ connection: FloorConnection) {
        close(connection.fd)
        connections[connection.fd] = nil
    }
}
