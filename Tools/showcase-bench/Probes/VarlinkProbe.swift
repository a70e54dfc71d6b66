@preconcurrency import Glibc

/// One call, one reply, over a fresh connection: for capturing the daemon's reply, asking for a reload or
/// a status, and telling when a starting daemon answers. Never used inside a measured loop.
enum VarlinkProbe {
    /// Sends `call` (JSON without NUL) and returns the first reply's bytes (without NUL).
    static func call(socketPath: String, _ call: String, timeoutSeconds: Double = 10) throws(BenchError) -> [UInt8] {
        let fd = try UnixSocket.connect(path: socketPath)
        defer { close(fd) }
        return try exchange(fd: fd, call, timeoutSeconds: timeoutSeconds)
    }

    /// Sends `call` on an open connection and reads one reply.
    static func exchange(fd: Int32, _ call: String, timeoutSeconds: Double) throws(BenchError) -> [UInt8] {
        var bytes = Array(call.utf8)
        bytes.append(0)
        guard bytes.withUnsafeBytes({ UnixSocket.writeAll(fd, $0.baseAddress!, $0.count) }) else {
            throw BenchError("could not send the call: \(UnixSocket.errorText())")
        }
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(seconds: timeoutSeconds)
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let now = MonotonicClock.now()
            guard now < deadline else { throw BenchError("no reply within \(timeoutSeconds) s") }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let waitMs = Int32(min(1000, (deadline - now) / 1_000_000 + 1))
            if poll(&entry, 1, waitMs) <= 0 { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { throw BenchError("the server closed the connection before replying") }
            if let end = chunk[0..<count].firstIndex(of: 0) {
                reply.append(contentsOf: chunk[0..<end])
                return reply
            }
            reply.append(contentsOf: chunk[0..<count])
        }
    }
}
