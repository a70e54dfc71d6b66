@preconcurrency import Glibc

/// One client thread of a load run: drives its share of the connections with poll() (or a blocking read
/// when it owns just one) and records the replies that fall inside the measured window.
///
/// `@unchecked Sendable` because it is handed to its thread once and read back only after that thread was
/// joined; nothing touches it concurrently.
final class LoadWorker: @unchecked Sendable {
    private let connections: [LoadConnection]
    private let options: LoadOptions
    private let batch: UnsafeMutableRawBufferPointer
    private(set) var result = LoadResult()

    init(connections: [LoadConnection], options: LoadOptions) {
        self.connections = connections
        self.options = options
        batch = .allocate(byteCount: options.call.count * options.depth, alignment: 16)
        for copy in 0..<options.depth {
            options.call.withUnsafeBytes { call in
                UnsafeMutableRawBufferPointer(rebasing: batch[(copy * call.count)...]).copyMemory(from: call)
            }
        }
        result.latencies.reserveCapacity(1 << 16)
    }

    deinit { batch.deallocate() }

    /// Runs from `start` (monotonic ns, shared by all workers) until the window closed and replies drained.
    func run(start: UInt64, measureStart: UInt64, measureEnd: UInt64, hardEnd: UInt64) {
        while MonotonicClock.now() < start { usleep(100) }
        let callLength = options.call.count
        let batchBytes = UnsafeRawBufferPointer(batch)
        let countMode = options.totalCalls != nil
        let rotation = options.rotation
        func send(_ connection: LoadConnection, count: Int) {
            if rotation.isEmpty {
                connection.send(count: count, from: batchBytes, callLength: callLength, at: MonotonicClock.now())
            } else {
                connection.send(count: count, rotating: rotation, at: MonotonicClock.now())
            }
        }
        for connection in connections { send(connection, count: options.depth) }
        var pollSet = [pollfd](repeating: pollfd(), count: connections.count)
        var owners = [LoadConnection](repeating: connections[0], count: connections.count)
        var drainEnd = UInt64.max

        while true {
            let now = MonotonicClock.now()
            let sending = countMode ? now < hardEnd : now < measureEnd
            if !sending, drainEnd == .max {
                drainEnd = now + MonotonicClock.nanoseconds(seconds: options.drainSeconds)
                for connection in connections { connection.budget = 0 }
            }
            if now >= drainEnd { break }
            var active = 0
            for connection in connections where connection.isOpen && connection.inFlight > 0 {
                pollSet[active] = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
                owners[active] = connection
                active += 1
            }
            if active == 0 { break }
            if active > 1 || connections.count > 1 {
                let ready = poll(&pollSet, nfds_t(active), 50)
                if ready <= 0 { continue }
            }
            for index in 0..<active where active == 1 || pollSet[index].revents != 0 {
                let connection = owners[index]
                let completed = connection.receive(at: MonotonicClock.now) { message, at, latency in
                    result.totalReplies += 1
                    let isError = ReplyScanner.isError(message)
                    if isError { result.totalErrors += 1 }
                    if countMode || (at >= measureStart && at < measureEnd) {
                        result.replies += 1
                        result.replyBytes += message.count
                        result.latencies.append(latency)
                        if isError { result.errors += 1 }
                    }
                }
                if let completed, completed > 0 { send(connection, count: completed) }
            }
        }
        for connection in connections {
            result.unanswered += connection.inFlight
            if connection.failed { result.failedConnections += 1 }
            connection.close()
        }
    }
}
