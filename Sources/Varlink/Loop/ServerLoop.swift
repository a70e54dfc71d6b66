import CSystem
import Dispatch
import FoundationEssentials
import Locking

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The single epoll event loop behind `VarlinkServer`: accepts, reads, parses, dispatches and
/// writes for every connection on one thread, so the fast path has no locks and no thread hops.
/// Other threads talk to it only through `mailbox` plus an eventfd wake-up.
///
/// The loop decides what happens when; each connection keeps its own books (`ServerConnection`: call slots in
/// order, framing in `+Framing`, the write queue in `PendingWrites`), a call's envelope is read by
/// `CallEnvelope`, and admission lives in `ServerLoop+Accepting`.
final class ServerLoop: @unchecked Sendable {
    enum Message {
        case reply(connectionID: UInt64, sequence: UInt64, bytes: [UInt8], final: Bool)
        case adopt(fd: Int32)
        case shutdown(deadline: UInt64)
        case drained(connectionID: UInt64, sequence: UInt64, body: @Sendable () -> Void)
    }

    let service: VarlinkService
    let limits: VarlinkServer.Limits
    let epollFD: Int32
    let wakeFD: Int32
    var listeners: [Int32] = []
    /// Open connections by id. This and `dirty` are read or written a few times per call, always briefly and
    /// calling out to nothing, on the loop thread only: exclusivity is not checked at run time.
    @exclusivity(unchecked) var connections = ConnectionTable()
    /// Connections with output to write at the end of this wake-up.
    @exclusivity(unchecked) var dirty: [ServerConnection] = []
    /// The connections `flushDirty` is writing; empty between wake-ups.
    @exclusivity(unchecked) var flushing: [ServerConnection] = []
    /// Parsed call messages shared by all connections (loop thread only).
    let callMemo = CallMemo()
    var loopThread: pthread_t?
    var reserveFD: Int32 = -1
    /// Open connections per peer uid, for `maxConnectionsPerUID`.
    var connectionsPerUID: [UInt32: Int] = [:]
    /// Connections admitted into the privileged reserve.
    var reserveInUse = 0
    /// Bytes of half-received messages held by every connection together.
    var bufferedInput = 0
    /// Reply bytes queued for every connection together.
    var bufferedOutput = 0
    var shutdownDeadline: UInt64?
    var running = true
    let idleNanoseconds: UInt64
    var lastSweep: UInt64 = 0
    /// The clock idle and shutdown deadlines are measured on, and its reading when the loop was made: the loop's
    /// times (``now()``, `lastActivity`, deadlines) are nanoseconds since then.
    let clock: VarlinkServer.Clock
    let origin: ContinuousClock.Instant
    /// The clock when the current batch of events arrived: activity times for idle timeouts (which are whole
    /// seconds) need no fresher reading, and a clock read per call is measurable on the hot path.
    var batchTime: UInt64 = 0

    /// Guards `mailbox`, which other threads append to.
    let mailboxLock = Lock(())
    var mailbox: [Message] = []
    /// Told when `run()` has ended, to whoever blocks on or awaits the server's stop.
    let completion = LoopCompletion()
    /// Guards `publishedConnectionCount`.
    let connectionCountLock = Lock(())
    var publishedConnectionCount = 0

    static let listenerTag: UInt64 = 1 << 62
    static let wakeTag: UInt64 = 0

    init(service: VarlinkService, limits: VarlinkServer.Limits, clock: VarlinkServer.Clock) throws(VarlinkError) {
        self.service = service
        self.limits = limits
        self.clock = clock
        origin = clock.now()
        idleNanoseconds = Self.nanoseconds(limits.idleTimeout)
        epollFD = csys_epoll_create()
        wakeFD = csys_eventfd()
        guard epollFD >= 0, wakeFD >= 0 else {
            throw VarlinkError(
                code: .bindFailed, detail: "Could not create the server's event loop (\(errnoText(-epollFD))).")
        }
        _ = csys_epoll_add(epollFD, wakeFD, UInt32(CSYS_EPOLLIN), ServerLoop.wakeTag)
        reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    deinit {
        _ = csys_close(epollFD)
        _ = csys_close(wakeFD)
        if reserveFD >= 0 { _ = csys_close(reserveFD) }
        scratch.deallocate()
    }

    /// Nanoseconds on ``clock`` since the loop was made (0 should the clock stand before that).
    func now() -> UInt64 {
        let elapsed = clock.now() - origin
        return elapsed < .zero ? 0 : Self.nanoseconds(elapsed)
    }

    /// `duration` in whole nanoseconds: 0 for a negative one, saturating rather than trapping for a huge one.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || carry ? .max : total
    }

    var isOnLoopThread: Bool {
        guard let loopThread else { return false }
        return pthread_equal(pthread_self(), loopThread) != 0
    }

    func post(_ message: Message) {
        let wasEmpty = mailboxLock.withLock { _ in
            let wasEmpty = mailbox.isEmpty
            mailbox.append(message)
            return wasEmpty
        }
        if wasEmpty { _ = csys_eventfd_signal(wakeFD) }
    }

    func deliver(connectionID: UInt64, sequence: UInt64, bytes: [UInt8], final: Bool) {
        if isOnLoopThread {
            apply(connectionID: connectionID, sequence: sequence, bytes: bytes, final: final)
        } else {
            post(.reply(connectionID: connectionID, sequence: sequence, bytes: bytes, final: final))
        }
    }

    func apply(connectionID: UInt64, sequence: UInt64, bytes: [UInt8], final: Bool) {
        guard let connection = connections[connectionID] else { return }
        apply(connection, sequence: sequence, bytes: bytes, final: final)
    }

    func apply(_ connection: ServerConnection, sequence: UInt64, bytes: [UInt8], final: Bool) {
        guard connection.isOpen else { return }
        let wasQuiet = !connection.hasPendingOutput
        connection.deliver(sequence: sequence, bytes: bytes, final: final)
        if connection.pendingBytes > limits.maxPendingOutputBytes || !accountOutput(connection) {
            return close(connection)
        }
        if wasQuiet, connection.hasPendingOutput { dirty.append(connection) }
    }

    // MARK: - The loop

    func run() {
        loopThread = pthread_self()
        var events = [csys_event](repeating: csys_event(), count: 256)
        let tickMilliseconds =
            idleNanoseconds == 0 ? 1000 : Int32(clamping: max(10, min(1000, Int(idleNanoseconds / 4_000_000))))
        while running {
            let count = events.withUnsafeMutableBufferPointer {
                csys_epoll_wait(
                    epollFD, $0.baseAddress, Int32($0.count), shutdownDeadline == nil ? tickMilliseconds : 10)
            }
            batchTime = now()
            for index in 0..<max(0, Int(count)) {
                let event = events[index]
                if event.data == ServerLoop.wakeTag {
                    _ = csys_eventfd_drain(wakeFD)
                    drainMailbox()
                } else if event.data & ServerLoop.listenerTag != 0 {
                    // The listeners may have been closed by a shutdown earlier in this batch.
                    let listener = Int(event.data & ~ServerLoop.listenerTag)
                    if listener < listeners.count { acceptAll(listeners[listener]) }
                } else if let connection = connections[event.data] {
                    handle(event: event.events, on: connection)
                }
            }
            flushDirty()
            let now = self.now()
            let sweepInterval = UInt64(shutdownDeadline == nil ? tickMilliseconds : 10) * 1_000_000
            if now &- lastSweep >= sweepInterval || (shutdownDeadline != nil && connections.isEmpty) {
                lastSweep = now
                sweep(now: now)
            }
        }
        for connection in connections.all { close(connection) }
        for listener in listeners { _ = csys_close(listener) }
        listeners = []
        completion.finish()
    }

    func drainMailbox() {
        let messages = mailboxLock.withLock { _ in
            let messages = mailbox
            mailbox = []
            return messages
        }
        for message in messages {
            switch message {
            case .reply(let connectionID, let sequence, let bytes, let final):
                apply(connectionID: connectionID, sequence: sequence, bytes: bytes, final: final)
            case .adopt(let fd):
                _ = csys_set_nonblocking(fd, 1)
                register(fd: fd, capped: false)
            case .shutdown(let deadline):
                beginShutdown(deadline: deadline)
            case .drained(let connectionID, let sequence, let body):
                whenDrained(connectionID: connectionID, sequence: sequence, body)
            }
        }
    }

    func beginShutdown(deadline: UInt64) {
        guard shutdownDeadline == nil else { return }
        shutdownDeadline = deadline
        for listener in listeners {
            _ = csys_epoll_del(epollFD, listener)
            _ = csys_close(listener)
        }
        listeners = []
        sweep(now: now())
    }

    func sweep(now: UInt64) {
        for connection in connections.all {
            if let deadline = shutdownDeadline {
                if connection.isQuiet || now >= deadline { close(connection) }
            } else if connection.isQuiet, idleNanoseconds > 0, now &- connection.lastActivity >= idleNanoseconds {
                close(connection)
            }
        }
        if shutdownDeadline != nil, connections.isEmpty { running = false }
    }

    func close(_ connection: ServerConnection) {
        guard connection.isOpen else { return }
        release(connection)
        let responders = connection.discardAll()
        _ = csys_epoll_del(epollFD, connection.fd)
        _ = csys_close(connection.fd)
        connections.remove(id: connection.id)
        publishCount()
        for responder in responders { responder.markClosed() }
    }

    // MARK: - Reading

    static let readChunk = 65536
    /// Where every connection's bytes are read to. Raw memory rather than an array: an array property is checked
    /// for exclusive access and unique ownership each time it is lent out, twice per read, on every call's path.
    let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: ServerLoop.readChunk)

    func handle(event: UInt32, on connection: ServerConnection) {
        // After a half-close, a hang-up means the peer is gone for good: nothing can be
        // delivered, and a level-triggered HUP would otherwise wake the loop forever.
        if connection.inputClosed, event & UInt32(CSYS_EPOLLHUP | CSYS_EPOLLERR) != 0 {
            return close(connection)
        }
        if event & UInt32(CSYS_EPOLLOUT) != 0 {
            flush(connection)
            guard connection.isOpen else { return }
        }
        if event & UInt32(CSYS_EPOLLIN | CSYS_EPOLLHUP | CSYS_EPOLLERR | CSYS_EPOLLRDHUP) != 0,
            !connection.inputClosed
        {
            readAvailable(connection, peerGone: event & UInt32(CSYS_EPOLLHUP | CSYS_EPOLLERR) != 0)
        }
    }

    /// `peerGone`: the peer closed both directions (EPOLLHUP), so nothing it asked for can be
    /// delivered; a bare EOF (EPOLLRDHUP) is a half-close and pending replies are still written.
    func readAvailable(_ connection: ServerConnection, peerGone: Bool) {
        for _ in 0..<4 {
            let count = csys_recv(connection.fd, scratch.baseAddress, scratch.count)
            if count > 0 {
                connection.lastActivity = batchTime
                consume(UnsafeBufferPointer(rebasing: scratch[0..<count]), on: connection)
                if !connection.isOpen { return }
                flush(connection)
                if !connection.isOpen || count < ServerLoop.readChunk { return }
            } else if count == 0 {
                connection.inputClosed = true
                if peerGone || connection.isQuiet { return close(connection) }
                updateInterest(connection)
                return
            } else if count == -Int(EAGAIN) || count == -Int(EWOULDBLOCK) {
                return
            } else {
                close(connection)
                return
            }
        }
    }

    /// Hands every complete message in `bytes` to `handleMessage`; closes a connection whose message is too long.
    func consume(_ bytes: UnsafeBufferPointer<UInt8>, on connection: ServerConnection) {
        let withinLimit = connection.splitMessages(bytes, maxMessageBytes: limits.maxMessageBytes) { message in
            handleMessage(message, on: connection)
        }
        if !withinLimit || (connection.isOpen && !accountInput(connection)) { close(connection) }
    }

    func handleMessage(_ bytes: UnsafeBufferPointer<UInt8>, on connection: ServerConnection) {
        // Not JSON, not UTF-8, or not a call object: the stream cannot be trusted any more,
        // so this client (only) is disconnected.
        guard let remembered = connection.call(bytes, memo: callMemo), let envelope = remembered.envelope else {
            return close(connection)
        }
        var sequence: UInt64 = 0
        if !envelope.oneway {
            guard let opened = connection.beginCall(limit: limits.maxCallsInFlight) else { return close(connection) }
            sequence = opened
        }
        func reject(_ error: VarlinkError) {
            if !envelope.oneway {
                apply(connection, sequence: sequence, bytes: EncodedReply(error: error).bytes, final: true)
            }
        }
        guard envelope.parameters != nil else { return reject(.invalidParameter("parameters")) }
        if envelope.upgrade { return reject(.invalidParameter("upgrade")) }
        let route: VarlinkInterface.Route
        if let known = remembered.route {
            route = known  // the loop's service never changes, so neither does a method's route
        } else {
            switch service.route(for: envelope.method) {
            case .success(let found): route = found
            case .failure(let error): return reject(error)
            }
            remembered.route = route
        }
        route.calls.increment()
        if route.requiresMore, !envelope.more { return reject(.expectedMore()) }
        if connection.inReserve, !reserveAllows(envelope.method) {
            let allowed = limits.reserveInterfaces.sorted().joined(separator: ", ")
            return reject(.serviceBusy("too many connections; this one may only call \(allowed)"))
        }
        // A message seen before may be answered from what its handler kept for it, without a call or a responder.
        if let keptAnswer = route.keptAnswer, !envelope.oneway, !envelope.more, let kept = remembered.derived(),
            let reply = keptAnswer(kept), !reply.continues
        {
            return apply(connection, sequence: sequence, bytes: reply.bytes, final: true)
        }
        let responder = VarlinkResponder(
            loop: self, connectionID: connection.id, sequence: sequence, more: envelope.more, oneway: envelope.oneway)
        if !envelope.oneway { connection.attachToNewestCall(responder) }
        let call = VarlinkCall(envelope: envelope, peer: connection.peer, remembered: remembered)
        do {
            try route.handler(call, responder)
        } catch {
            responder.fail(error)
        }
    }

    // MARK: - Writing

    func flushDirty() {
        // Drained callbacks that this wake-up's writes released go to the drain queue together, after the writes.
        defer { ServerConnection.drained.dispatch() }
        guard !dirty.isEmpty else { return }
        // Swapped with a spare rather than replaced by `[]`, so neither list gives up its storage: a wake-up with
        // output allocates no array.
        swap(&dirty, &flushing)
        // A connection whose reply was answered inline was flushed right after its read (`readAvailable`): only
        // what is still waiting (replies from other threads, a full socket) needs writing here.
        for connection in flushing where connection.isOpen && connection.hasPendingOutput { flush(connection) }
        flushing.removeAll(keepingCapacity: true)
    }

    func flush(_ connection: ServerConnection) {
        while connection.hasPendingOutput {
            let sent = connection.output.write(to: connection.fd)
            if sent > 0 {
                connection.output.consume(sent)
            } else if sent == -Int(EAGAIN) || sent == -Int(EWOULDBLOCK) {
                break
            } else {
                return close(connection)
            }
        }
        _ = accountOutput(connection)
        if !connection.hasPendingOutput {
            connection.lastActivity = batchTime
            if !connection.drainWaiters.isEmpty { connection.runDrainWaiters() }
        } else if connection.pendingBytes > limits.maxPendingOutputBytes {
            return close(connection)
        }
        if connection.isQuiet, connection.inputClosed || shutdownDeadline != nil {
            return close(connection)
        }
        updateInterest(connection)
    }

    func updateInterest(_ connection: ServerConnection) {
        let wantWrite = connection.hasPendingOutput
        guard wantWrite != connection.watchingWrite || connection.inputClosed else { return }
        connection.watchingWrite = wantWrite
        var events: UInt32 = wantWrite ? UInt32(CSYS_EPOLLOUT) : 0
        if !connection.inputClosed { events |= UInt32(CSYS_EPOLLIN | CSYS_EPOLLRDHUP) }
        _ = csys_epoll_mod(epollFD, connection.fd, events, connection.id)
    }
}

func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
