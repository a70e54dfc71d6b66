import CSystem
import Dispatch
import Foundation
import Testing

@testable import Varlink

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// What the test interface's handlers observed, for assertions made from the test thread.
final class Observations: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String] = []
    let slowStarted = DispatchSemaphore(value: 0)
    let watchClosed = DispatchSemaphore(value: 0)
    let drained = DispatchSemaphore(value: 0)
    /// Signalled by each Notify call, after its note: every call its connection sent before it has been handled.
    let notified = DispatchSemaphore(value: 0)

    func note(_ text: String) {
        lock.lock()
        notes.append(text)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return notes
    }
}

/// A service with one test interface exercising every server path.
enum TestService {
    static let idl = """
        # Methods for the Varlink module's tests.
        interface org.example.test

        # Replies with exactly the parameters it was called with.
        method Echo(value: ?object) -> (value: ?object)
        # Replies from another thread after delayMs.
        method Slow(delayMs: int, tag: string) -> (tag: string)
        # Streams 0..<count; only with more.
        method Count(count: int) -> (index: int)
        method Whoami() -> (pid: int, uid: int, gid: int)
        method Notify(text: string) -> ()
        method Unimplemented() -> ()
        method Denied() -> ()
        # One reply, then waits until the client goes away.
        method Watch() -> (tick: int)
        # Returns a pre-encoded reply.
        method Cached() -> (cached: bool)
        # Streams one reply with a payload of size bytes (sent from another thread if elsewhere),
        # then a final reply once that one has been written.
        method Flood(size: int, elsewhere: ?bool) -> (payload: string)
        """

    static func make(_ observations: Observations) throws -> VarlinkService {
        var interface = try VarlinkInterface(idl: idl)
        try interface.handle("Echo") { call, responder in responder.reply(.object(call.parameters)) }
        try interface.handle("Slow") { call, responder throws(VarlinkError) in
            let delay = try call.int("delayMs")
            let tag = try call.string("tag")
            observations.slowStarted.signal()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(delay))) {
                responder.reply(["tag": .string(tag)])
            }
        }
        try interface.handle("Count", requiresMore: true) { call, responder throws(VarlinkError) in
            let count = try call.int("count")
            DispatchQueue.global().async {
                for index in 0..<count {
                    responder.reply(["index": .int(index)], continues: index + 1 < count)
                }
            }
        }
        try interface.handle("Whoami") { call, responder in
            responder.reply([
                "pid": .int(Int64(call.peer.pid)), "uid": .int(Int64(call.peer.uid)),
                "gid": .int(Int64(call.peer.gid)),
            ])
        }
        try interface.handle("Notify") { call, responder throws(VarlinkError) in
            observations.note("notify:\(try call.string("text")):oneway=\(call.oneway)")
            observations.notified.signal()
            responder.reply()
        }
        try interface.handle("Denied") { _, _ throws(VarlinkError) in throw .permissionDenied() }
        try interface.handle("Watch", requiresMore: true) { _, responder in
            responder.reply(["tick": 0], continues: true)
            responder.onConnectionClosed { observations.watchClosed.signal() }
        }
        try interface.handle("Flood", requiresMore: true) { call, responder throws(VarlinkError) in
            let payload = String(repeating: "f", count: Int(try call.int("size")))
            let stream: @Sendable () -> Void = {
                responder.reply(["payload": .string(payload)], continues: true)
                responder.whenOutputDrained {
                    observations.drained.signal()
                    responder.reply(["payload": "drained"])
                }
            }
            if try call.optionalBool("elsewhere") == true {
                DispatchQueue(label: "flood").async(execute: stream)
            } else {
                stream()
            }
        }
        let cached = EncodedReply(encodedParameters: Array(#"{"cached":true}"#.utf8))
        try interface.handle("Cached") { _, responder in responder.reply(cached) }
        var service = VarlinkService(
            vendor: "Example Vendor", product: "Tests", version: "1.2.3", url: "https://example.org")
        try service.add(interface)
        return service
    }
}

/// A running server on a fresh socket path, shut down by `stop()`.
final class TestServer: @unchecked Sendable {
    let server: VarlinkServer
    let path: String
    let directory: String
    let observations = Observations()

    init(limits: VarlinkServer.Limits = .init(), clock: VarlinkServer.Clock = .continuous) throws {
        directory = "/tmp/varlink-tests-\(UUID().uuidString.prefix(8))"
        path = directory + "/sub/test.sock"
        server = try VarlinkServer(service: try TestService.make(observations), limits: limits, clock: clock)
        try server.bind(path: path, mode: 0o600)
        try server.start()
    }

    /// A server for async calls: an awaiting task may wait long for a thread of the cooperative pool when the
    /// whole suite runs at once under a sanitizer on 2 cores (112 s seen), longer than the default 60 s idle timeout,
    /// which would close the connection between two calls and fail the test for a reason it does not test. Its
    /// clock never moves, so however long the wait, no connection becomes idle.
    static func forAsyncCalls() throws -> TestServer { try TestServer(clock: ManualServerClock().serverClock) }

    func client(timeout: Duration = .seconds(10)) throws -> VarlinkClient {
        try VarlinkClient(path: path, timeout: timeout)
    }

    func raw() throws -> RawPeer {
        let fd = csys_unix_connect(path)
        guard fd >= 0 else { throw VarlinkError(code: .connectionFailed, detail: "test connect failed") }
        return RawPeer(fd: fd)
    }

    func stop(gracePeriod: Duration = .milliseconds(200)) {
        server.shutdown(gracePeriod: gracePeriod)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A client speaking raw bytes, for framing tests and misbehaving peers.
final class RawPeer {
    let fd: Int32
    var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }
    deinit { _ = csys_close(fd) }

    /// Sends all bytes; false if the peer closed the connection meanwhile.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { csys_send(fd, $0.baseAddress! + offset, $0.count - offset) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// The next message, or nil when the connection is closed (or nothing came within 10 s).
    func receive(timeoutMilliseconds: Int32 = 10_000) -> JSONValue? {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = try? JSONValue(parsing: buffer[..<end])
                buffer.removeSubrange(0...end)
                return message
            }
            guard readMore(timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        }
    }

    private func readMore(timeoutMilliseconds: Int32) -> Bool {
        guard csys_poll(fd, Int16(POLLIN), timeoutMilliseconds) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { csys_recv(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Whether the connection is still open now: nothing to read, so no EOF either (the caller has read every reply).
    var isOpenNow: Bool { csys_poll(fd, Int16(POLLIN), 0) == 0 }

    /// True when the server closed the connection (EOF or reset) within 10 s.
    func isClosedByServer(within seconds: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard csys_poll(fd, Int16(POLLIN), 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { csys_recv(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return true }
        }
        return false
    }
}

/// A connected pair of stream sockets; the first end is handed to the server.
func socketPair() -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    let result = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
    precondition(result == 0, "socketpair failed")
    return (fds[0], fds[1])
}

func call(_ method: String, _ parameters: JSONValue? = nil, more: Bool = false, oneway: Bool = false) -> String {
    var fields: [String: JSONValue] = ["method": .string(method)]
    if let parameters { fields["parameters"] = parameters }
    if more { fields["more"] = true }
    if oneway { fields["oneway"] = true }
    return JSONValue.object(fields).description + "\u{0}"
}

/// Asserts that `client` is still served normally.
func expectStillServed(_ client: VarlinkClient, sourceLocation: SourceLocation = #_sourceLocation) {
    let reply = try? client.callSync("org.example.test.Echo", ["value": ["still": "here"]])
    #expect(reply == ["value": ["still": "here"]], sourceLocation: sourceLocation)
}

/// Makes one Echo call on `peer` and expects its answer: the server has accepted the connection, and it was
/// last active as of the server clock's now.
func expectAnswered(_ peer: RawPeer, sourceLocation: SourceLocation = #_sourceLocation) {
    peer.send(call("org.example.test.Echo", ["n": 1]))
    #expect(peer.receive() == ["parameters": ["n": 1]], sourceLocation: sourceLocation)
}

/// A value shared between a test and a thread it started.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value } }
}
