import Foundation
@preconcurrency import Glibc

/// Opens the connections, spreads them over worker threads, starts every thread at the same instant and
/// merges what they measured.
enum LoadGenerator {
    static func run(_ options: LoadOptions) throws(BenchError) -> LoadResult {
        guard options.connections > 0, options.depth > 0, options.threads > 0 else {
            throw BenchError("--connections, --depth and --threads must be at least 1")
        }
        guard options.call.last == 0 else { throw BenchError("the call must end with a NUL byte") }
        signal(SIGPIPE, SIG_IGN)
        var connections: [LoadConnection] = []
        for index in 0..<options.connections {
            let fd: Int32
            do {
                fd = try UnixSocket.connect(path: options.socketPath)
            } catch {
                connections.forEach { $0.close() }
                throw error
            }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let budget: Int
            if let total = options.totalCalls {
                budget = total / options.connections + (index < total % options.connections ? 1 : 0)
            } else {
                budget = .max
            }
            let connection = LoadConnection(fd: fd, depth: options.depth, budget: budget)
            if !options.rotation.isEmpty {
                connection.nextCall = options.rotation.count * index / options.connections % options.rotation.count
            }
            connections.append(connection)
        }
        let threadCount = min(options.threads, options.connections)
        let workers = (0..<threadCount).map { thread in
            LoadWorker(
                connections: stride(from: thread, to: connections.count, by: threadCount).map { connections[$0] },
                options: options)
        }
        let start = MonotonicClock.now() + 20_000_000
        let countMode = options.totalCalls != nil
        let measureStart = countMode ? start : start + MonotonicClock.nanoseconds(seconds: options.warmupSeconds)
        let measureEnd =
            countMode ? UInt64.max : measureStart + MonotonicClock.nanoseconds(seconds: options.durationSeconds)
        let hardEnd = start + MonotonicClock.nanoseconds(seconds: options.timeoutSeconds)
        let group = DispatchGroup()
        for worker in workers {
            group.enter()
            let thread = Thread {
                worker.run(start: start, measureStart: measureStart, measureEnd: measureEnd, hardEnd: hardEnd)
                group.leave()
            }
            thread.start()
        }
        var cpu: (client: Double, server: Double?)?
        if !countMode {
            while MonotonicClock.now() < measureStart { usleep(1000) }
            let clientStart = CPUTime.own()
            let serverStart = options.serverPid.flatMap(CPUTime.process)
            while MonotonicClock.now() < measureEnd { usleep(1000) }
            let serverEnd = options.serverPid.flatMap(CPUTime.process)
            cpu = (CPUTime.own() - clientStart, serverStart.flatMap { start in serverEnd.map { $0 - start } })
        }
        group.wait()
        var result = LoadResult()
        result.configuredInFlight = options.connections * options.depth
        result.clientCPUSeconds = cpu?.client
        result.serverCPUSeconds = cpu?.server
        for worker in workers { result.merge(worker.result) }
        if countMode {
            result.seconds = Double(MonotonicClock.now() - start) / 1e9
        } else {
            result.seconds = options.durationSeconds
        }
        return result
    }
}
