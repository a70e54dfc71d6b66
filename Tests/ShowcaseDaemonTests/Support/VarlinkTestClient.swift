import Foundation
@preconcurrency import Glibc

/// A deliberately raw Varlink client for tests: it can send well-formed calls and also garbage,
/// oversized and half-sent messages, and reads replies as plain JSON dictionaries.
final class VarlinkTestClient {
    let fd: Int32
    private var buffer = [UInt8]()

    init(path: String, receiveTimeout: Int = 15) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            path.utf8CString.withUnsafeBytes {
                raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(raw.count)))
            }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw HarnessError("cannot connect to \(path): \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Writes raw bytes; returns false when the daemon has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Sends one call (`more` for streaming) without waiting for the reply.
    func send(_ method: String, _ parameters: [String: Any] = [:], more: Bool = false) throws {
        var message: [String: Any] = ["method": method, "parameters": parameters]
        if more { message["more"] = true }
        let data = try JSONSerialization.data(withJSONObject: message)
        send(Array(data) + [0])
    }

    /// The next message, parsed; throws on timeout or a closed connection.
    func next() throws -> Reply {
        guard let reply = try nextUnlessClosed() else { throw HarnessError("the daemon closed the connection") }
        return reply
    }

    /// The next message, or nil when the daemon closed the connection (EOF or a reset) before sending one.
    /// Throws when nothing arrives within the receive timeout: a daemon that neither answers nor closes.
    func nextUnlessClosed() throws -> Reply? {
        while true {
            if let nul = buffer.firstIndex(of: 0) {
                let message = Array(buffer[..<nul])
                buffer.removeSubrange(...nul)
                guard let object = try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any] else {
                    throw HarnessError("reply is not an object: \(String(decoding: message, as: UTF8.self))")
                }
                return Reply(object)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 || (n < 0 && errno == ECONNRESET) { return nil }
            if n < 0 {
                let reason = errno == EAGAIN || errno == EWOULDBLOCK ? "timed out" : String(cString: strerror(errno))
                throw HarnessError("no reply and the connection is still open: \(reason)")
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Calls `method` and returns its (first) reply.
    func call(_ method: String, _ parameters: [String: Any] = [:], more: Bool = false) throws -> Reply {
        try send(method, parameters, more: more)
        return try next()
    }

    /// True when the daemon has closed this connection (reads EOF or a reset).
    func isClosedByPeer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n > 0 { continue }
            return n == 0 || errno == ECONNRESET
        }
    }
}
