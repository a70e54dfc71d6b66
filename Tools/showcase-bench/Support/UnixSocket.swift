@preconcurrency import Glibc

/// Unix stream sockets from Swift: the sockaddr_un plumbing the load generator and the floor share.
///
/// The harness keeps its own few lines here instead of the Varlink module's client so that what is measured
/// is the daemon, not a client library, and so the floor and the daemon see byte-identical traffic.
enum UnixSocket {
    /// A blocking, close-on-exec stream socket connected to `path`.
    static func connect(path: String) throws(BenchError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("cannot create a socket: \(errorText())") }
        var address = try makeAddress(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let text = errorText()
            close(fd)
            throw BenchError("cannot connect to \(path): \(text); is the server running?")
        }
        return fd
    }

    /// A nonblocking listening socket at `path`, replacing a stale socket file left by an earlier run.
    static func listen(path: String, backlog: Int32 = 1024) throws(BenchError) -> Int32 {
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("cannot create a socket: \(errorText())") }
        var address = try makeAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let text = errorText()
            close(fd)
            throw BenchError("cannot listen on \(path): \(text); check the directory exists and is writable")
        }
        setNonblocking(fd)
        return fd
    }

    static func setNonblocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Writes all of `count` bytes on a blocking socket, retrying partial writes and EINTR.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let written = send(fd, bytes + offset, count - offset, Int32(MSG_NOSIGNAL))
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    private static func makeAddress(_ path: String) throws(BenchError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw BenchError("socket path \(path) is longer than \(capacity - 1) bytes; use a shorter directory")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
            buffer[bytes.count] = 0
        }
        return address
    }
}
