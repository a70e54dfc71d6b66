@preconcurrency import Glibc

/// One client connection of a load run: its socket, the calls in flight, and the bytes of a reply not yet
/// complete. Owned by exactly one ``LoadWorker`` thread, so it needs no locking.
final class LoadConnection {
    let fd: Int32
    /// Calls this connection may still send (`Int.max` in a duration run).
    var budget: Int
    private(set) var isOpen = true
    /// The index in the call rotation of the next call this connection sends (varied load only).
    var nextCall = 0
    var failed = false

    /// Send times of the calls in flight, oldest first: a ring as deep as the pipeline.
    private var sendTimes: [UInt64]
    private var head = 0
    private(set) var inFlight = 0

    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0
    private static let readSize = 64 * 1024

    init(fd: Int32, depth: Int, budget: Int) {
        self.fd = fd
        self.budget = budget
        sendTimes = Array(repeating: 0, count: depth)
        capacity = 256 * 1024
        buffer = malloc(capacity)!
    }

    deinit {
        free(buffer)
        if isOpen { Glibc.close(fd) }
    }

    func close() {
        if isOpen {
            Glibc.close(fd)
            isOpen = false
        }
    }

    /// Sends `count` calls in one write from `batch` (the call repeated `depth` times) and notes their time.
    func send(count: Int, from batch: UnsafeRawBufferPointer, callLength: Int, at now: UInt64) {
        let count = min(count, budget, sendTimes.count - inFlight)
        guard count > 0, isOpen else { return }
        guard UnixSocket.writeAll(fd, batch.baseAddress!, count * callLength) else {
            fail()
            return
        }
        budget -= count
        for _ in 0..<count {
            sendTimes[(head + inFlight) % sendTimes.count] = now
            inFlight += 1
        }
    }

    /// Sends `count` calls of `rotation`, each the one after the last this connection sent, and notes their time.
    func send(count: Int, rotating rotation: [[UInt8]], at now: UInt64) {
        let count = min(count, budget, sendTimes.count - inFlight)
        guard count > 0, isOpen, !rotation.isEmpty else { return }
        for _ in 0..<count {
            let call = rotation[nextCall % rotation.count]
            nextCall = (nextCall + 1) % rotation.count
            let written = call.withUnsafeBytes { UnixSocket.writeAll(fd, $0.baseAddress!, $0.count) }
            guard written else {
                fail()
                return
            }
            budget -= 1
            sendTimes[(head + inFlight) % sendTimes.count] = now
            inFlight += 1
        }
    }

    /// Reads what is available and hands each complete reply to `handle(message, latency)`.
    /// Returns the number of replies completed, or nil when the connection ended.
    func receive(
        at clock: () -> UInt64, handle: (UnsafeBufferPointer<UInt8>, UInt64, UInt64) -> Void
    ) -> Int? {
        if capacity - used < Self.readSize {
            capacity = max(capacity * 2, used + Self.readSize)
            buffer = realloc(buffer, capacity)!
        }
        let received = recv(fd, buffer + used, capacity - used, 0)
        if received < 0 {
            if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            fail()
            return nil
        }
        if received == 0 {
            if inFlight > 0 || budget > 0 { fail() } else { close() }
            return nil
        }
        let now = clock()
        var scanFrom = used
        used += received
        var messageStart = 0
        var completed = 0
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        while scanFrom < used, let found = memchr(buffer + scanFrom, 0, used - scanFrom) {
            let end = buffer.distance(to: found)
            guard inFlight > 0 else {
                // A reply nobody asked for: the server broke the protocol; stop trusting this connection.
                fail()
                return nil
            }
            let sentAt = sendTimes[head]
            head = (head + 1) % sendTimes.count
            inFlight -= 1
            handle(UnsafeBufferPointer(start: bytes + messageStart, count: end - messageStart), now, now &- sentAt)
            completed += 1
            messageStart = end + 1
            scanFrom = messageStart
        }
        if messageStart > 0 {
            if messageStart < used { memmove(buffer, buffer + messageStart, used - messageStart) }
            used -= messageStart
        }
        return completed
    }

    private func fail() {
        failed = true
        close()
    }
}
