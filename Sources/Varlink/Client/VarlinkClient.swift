import CSystem
import FoundationEssentials
import Locking

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A Varlink client over one Unix stream connection.
///
/// The connection is used synchronously with `poll()` deadlines (no event loop, no threads),
/// which is the cheapest thing for a short-lived CLI (`callSync`). The `async` API runs the
/// same code off the caller's task.
/// Calls on one client are serialized: a `stream` holds the connection until it ends, so use a
/// second client for calls made while watching. After a timeout the connection is closed
/// (a late reply could otherwise be taken for the next call's) and later calls fail with
/// `.connectionClosed`.
public final class VarlinkClient: @unchecked Sendable {
    private let fd: Int32
    /// Held for a whole call: calls on one client are serialized.
    private let lock = Lock(())
    /// Guards `isClosed`.
    private let stateLock = Lock(())
    private var buffer: [UInt8] = []
    private var isClosed = false
    /// Timeout used when a call does not pass one.
    public let defaultTimeout: Duration
    /// Largest reply accepted; a bigger one is treated as a protocol violation.
    public var maxReplyBytes = 64 << 20

    /// Connects to the Unix socket at `path` (an optional `unix:` prefix is accepted).
    public init(path: String, timeout: Duration = .seconds(30)) throws(VarlinkError) {
        let socketPath = path.hasPrefix("unix:") ? String(path.dropFirst(5)) : path
        let fd = csys_unix_connect(socketPath)
        guard fd >= 0 else {
            let reason: String
            switch -fd {
            case ENOENT: reason = "no socket exists there; is the service running?"
            case ECONNREFUSED: reason = "nothing is listening there; is the service running?"
            case EACCES: reason = "permission denied; check the socket's mode and group."
            default: reason = errnoText(-fd) + "."
            }
            throw VarlinkError(code: .connectionFailed, detail: "Could not connect to \(socketPath): \(reason)")
        }
        // Nonblocking, so a large send cannot block past the call's deadline.
        _ = csys_set_nonblocking(fd, 1)
        self.fd = fd
        self.defaultTimeout = timeout
    }

    /// Uses an already-connected stream socket (for example one end of a socketpair); the
    /// client owns it from now on.
    public init(connectedDescriptor fd: Int32, timeout: Duration = .seconds(30)) {
        _ = csys_set_nonblocking(fd, 1)
        self.fd = fd
        self.defaultTimeout = timeout
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        _ = csys_close(fd)
    }

    /// Closes the connection; calls in progress (on other threads) fail with
    /// `.connectionClosed`. The descriptor itself is released when the client is deallocated,
    /// so a thread still inside a call can never touch a reused descriptor number.
    public func close() {
        stateLock.withLock { _ in
            guard !isClosed else { return }
            isClosed = true
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    // MARK: - Synchronous API

    /// Calls `method` and waits (blocking this thread) for its single reply's parameters.
    /// Error replies throw `.reply` errors keeping the name and parameters.
    public func callSync(
        _ method: String, _ parameters: JSONValue = .emptyObject, timeout: Duration? = nil
    ) throws(VarlinkError) -> JSONValue {
        try lock.withLock { _ throws(VarlinkError) in
            let deadline = Self.deadline(after: timeout ?? defaultTimeout)
            try send(Self.encodeCall(method, parameters, more: false, oneway: false), deadline: deadline)
            let reply = try receiveReply(deadline: deadline)
            return reply.parameters
        }
    }

    /// Sends `method` as `oneway`: no reply is expected or read.
    public func sendOneway(_ method: String, _ parameters: JSONValue = .emptyObject) throws(VarlinkError) {
        try lock.withLock { _ throws(VarlinkError) in
            try send(
                Self.encodeCall(method, parameters, more: false, oneway: true),
                deadline: Self.deadline(after: defaultTimeout))
        }
    }

    /// Calls `method` with `more` and hands every reply to `body` (blocking) until the final
    /// one. `timeout` bounds the wait for each reply (nil: wait indefinitely, as a watch must).
    /// `body` returns false to stop early, which closes the connection.
    public func callMoreSync(
        _ method: String, _ parameters: JSONValue = .emptyObject, timeout: Duration? = nil,
        _ body: (JSONValue, _ continues: Bool) -> Bool
    ) throws(VarlinkError) {
        try lock.withLock { _ throws(VarlinkError) in
            try send(
                Self.encodeCall(method, parameters, more: true, oneway: false),
                deadline: Self.deadline(after: defaultTimeout))
            while true {
                let reply = try receiveReply(deadline: timeout.map { Self.deadline(after: $0) })
                if !body(reply.parameters, reply.continues) {
                    close()
                    return
                }
                if !reply.continues { return }
            }
        }
    }

    // MARK: - Async API

    /// Calls `method` and returns its reply's parameters, without blocking the caller's task.
    public func call(
        _ method: String, _ parameters: JSONValue = .emptyObject, timeout: Duration? = nil
    ) async throws(VarlinkError) -> JSONValue {
        let result: Result<JSONValue, VarlinkError> = await withCheckedContinuation { continuation in
            Self.detach {
                continuation.resume(
                    returning: Result { () throws(VarlinkError) in
                        try self.callSync(method, parameters, timeout: timeout)
                    })
            }
        }
        return try result.get()
    }

    /// Calls `method` with typed parameters and decodes the reply as `Reply`.
    public func call<Reply: Decodable>(
        _ method: String, _ parameters: some Encodable, returning: Reply.Type = Reply.self, timeout: Duration? = nil
    ) async throws -> Reply {
        let encoded = try JSONValue(encoding: parameters)
        return try await call(method, encoded, timeout: timeout).decode(Reply.self)
    }

    /// Calls `method` with `more` and yields each reply's parameters until the final one.
    /// Error replies end the stream by throwing `VarlinkError`. Cancelling the consuming task
    /// closes the connection (the only way to tell the service to stop).
    public func stream(
        _ method: String, _ parameters: JSONValue = .emptyObject
    ) -> AsyncThrowingStream<JSONValue, any Error> {
        AsyncThrowingStream { continuation in
            let done = LockedBox(false)
            continuation.onTermination = { [weak self] _ in
                if !done.withLock({ $0 }) { self?.close() }
            }
            Self.detach {
                do {
                    try self.callMoreSync(method, parameters) { value, _ in
                        if case .terminated = continuation.yield(value) { return false }
                        return true
                    }
                    done.withLock { $0 = true }
                    continuation.finish()
                } catch {
                    done.withLock { $0 = true }
                    continuation.finish(throwing: error)
                }
            }
        }
    }

    /// Runs blocking socket work on its own thread. Not on Dispatch's global queues: on Linux
    /// those also run Swift concurrency's tasks, and blocking them starves unrelated work.
    static func detach(_ body: @escaping @Sendable () -> Void) {
        startDetachedThread(named: "varlink-client", body)
    }

    // MARK: - Wire

    struct Reply {
        let parameters: JSONValue
        let continues: Bool
    }

    static func encodeCall(_ method: String, _ parameters: JSONValue, more: Bool, oneway: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        out.append(contentsOf: #"{"method":"#.utf8)
        JSONValue.serialize(string: method, into: &out)
        if more { out.append(contentsOf: #","more":true"#.utf8) }
        if oneway { out.append(contentsOf: #","oneway":true"#.utf8) }
        out.append(contentsOf: #","parameters":"#.utf8)
        if parameters.isNull {
            out.append(contentsOf: "{}".utf8)
        } else {
            parameters.serialize(into: &out)
        }
        out.append(contentsOf: [UInt8(ascii: "}"), 0])
        return out
    }

    /// The monotonic instant `duration` from now, in nanoseconds (``monotonicNanoseconds()``), saturating.
    static func deadline(after duration: Duration) -> UInt64 {
        let (deadline, overflow) = monotonicNanoseconds().addingReportingOverflow(ServerLoop.nanoseconds(duration))
        return overflow ? .max : deadline
    }

    /// CLOCK_MONOTONIC in nanoseconds. A client's timeouts bound real waits in `poll(2)`, so they are the
    /// machine's time, not a server's injected clock.
    static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    private func remainingMilliseconds(_ deadline: UInt64?) throws(VarlinkError) -> Int32 {
        guard let deadline else { return -1 }
        let now = Self.monotonicNanoseconds()
        guard now < deadline else {
            close()
            throw VarlinkError(
                code: .timeout, detail: "The service did not answer in time; it may be overloaded or stuck.")
        }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }

    private func checkOpen() throws(VarlinkError) {
        let closed = stateLock.withLock { _ in isClosed }
        if closed {
            throw VarlinkError(code: .connectionClosed, detail: "The connection to the service is closed; reconnect.")
        }
    }

    private func send(_ bytes: [UInt8], deadline: UInt64?) throws(VarlinkError) {
        try checkOpen()
        var offset = 0
        while offset < bytes.count {
            let ready = csys_poll(fd, Int16(POLLOUT), try remainingMilliseconds(deadline))
            if ready == 0 { continue }
            let sent = bytes.withUnsafeBytes { csys_send(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard sent > 0 else {
                if sent == -Int(EAGAIN) || sent == -Int(EWOULDBLOCK) { continue }
                // A server that refuses a connection (busy) says why and closes before the call arrives: that
                // reply is still readable, and is the better answer.
                if let parting = partingError() { throw parting }
                close()
                throw VarlinkError(
                    code: .connectionClosed, detail: "The service closed the connection while the call was sent.")
            }
            offset += sent
        }
    }

    /// The error reply a closing server left unread on the socket, if any, without waiting; closes the client.
    private func partingError() -> VarlinkError? {
        defer { close() }
        do {
            _ = try receiveReply(deadline: Self.deadline(after: .milliseconds(500)))
        } catch {
            if error.code == .reply { return error }
        }
        return nil
    }

    private func receiveReply(deadline: UInt64?) throws(VarlinkError) -> Reply {
        let message = try receiveMessage(deadline: deadline)
        guard case .object(let fields) = message else {
            close()
            throw VarlinkError(code: .protocolViolation, detail: "The service sent a reply that is not a JSON object.")
        }
        let parameters = fields["parameters"].map { $0.isNull ? JSONValue.emptyObject : $0 } ?? .emptyObject
        if let name = fields["error"] {
            guard case .string(let errorName) = name else {
                close()
                throw VarlinkError(code: .protocolViolation, detail: "The service sent an error reply without a name.")
            }
            throw VarlinkError(name: errorName, parameters: parameters)
        }
        return Reply(parameters: parameters, continues: fields["continues"]?.boolValue ?? false)
    }

    private func receiveMessage(deadline: UInt64?) throws(VarlinkError) -> JSONValue {
        var scanned = 0
        while true {
            if let end = buffer[scanned...].firstIndex(of: 0) {
                defer { buffer.removeSubrange(0...end) }
                do {
                    return try buffer.withUnsafeBufferPointer { all throws(JSONParseError) in
                        try JSONValue(parsing: UnsafeBufferPointer(rebasing: all[0..<end]))
                    }
                } catch {
                    close()
                    throw VarlinkError(code: .protocolViolation, detail: "The service sent malformed JSON (\(error)).")
                }
            }
            scanned = buffer.count
            guard buffer.count <= maxReplyBytes else {
                close()
                throw VarlinkError(
                    code: .protocolViolation, detail: "The service sent a reply larger than \(maxReplyBytes) bytes.")
            }
            try checkOpen()
            let ready = csys_poll(fd, Int16(POLLIN), try remainingMilliseconds(deadline))
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { csys_recv(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
            } else if count == -Int(EAGAIN) || count == -Int(EINTR) {
                continue
            } else {
                close()
                throw VarlinkError(
                    code: .connectionClosed, detail: "The service closed the connection before replying.")
            }
        }
    }
}
