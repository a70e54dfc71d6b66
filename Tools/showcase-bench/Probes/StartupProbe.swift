import Foundation
@preconcurrency import Glibc

/// Exec to ready: starts the daemon and times how long until its socket answers a real call, then (after
/// touching every storefront once) reads its resident memory, then stops it with SIGTERM.
///
/// "Ready" is the first complete reply to `call`, not the socket file appearing: a daemon that binds early
/// but answers only after loading its cache is ready when it answers.
enum StartupProbe {
    struct Outcome {
        var readyMilliseconds: Double
        var firstReplyState: String
        var touchErrors: Int
        /// CPU the daemon had used (all threads, user + system) when it first answered: steadier than wall
        /// time on a shared machine, and the thing to shrink when the wall time misses.
        var readyCPUMilliseconds: Double
        /// VmRSS right after the first reply, before any other query.
        var readyRssKiB: Int
        /// VmRSS after a Get on every storefront and the settle time.
        var rssKiB: Int
        var peakKiB: Int
        var exitStatus: Int32
    }

    static func run(
        command: [String], socketPath: String, call: String, touchCalls: [String], logPath: String?,
        timeoutSeconds: Double, settleSeconds: Double
    ) throws(BenchError) -> Outcome {
        unlink(socketPath)
        signal(SIGPIPE, SIG_IGN)
        let start = MonotonicClock.now()
        let child = try ChildProcess.spawn(command, logPath: logPath)
        let deadline = start + MonotonicClock.nanoseconds(seconds: timeoutSeconds)
        var reply: [UInt8]?
        while reply == nil {
            if let status = child.exitStatus() {
                throw BenchError(
                    "\(command[0]) exited with status \(status) before answering; see \(logPath ?? "its log")")
            }
            guard MonotonicClock.now() < deadline else {
                _ = child.stop()
                throw BenchError("\(command[0]) did not answer on \(socketPath) within \(timeoutSeconds) s")
            }
            if let fd = try? UnixSocket.connect(path: socketPath) {
                reply = try? VarlinkProbe.exchange(fd: fd, call, timeoutSeconds: timeoutSeconds)
                close(fd)
            }
            if reply == nil { usleep(200) }
        }
        let ready = Double(MonotonicClock.now() - start) / 1e6
        let readyMemory = child.memory()
        let readyCPU = (CPUTime.process(child.pid) ?? -0.001) * 1000
        var touchErrors = 0
        for touch in touchCalls {
            guard let bytes = try? VarlinkProbe.call(socketPath: socketPath, touch) else {
                touchErrors += 1
                continue
            }
            if bytes.withUnsafeBufferPointer({ ReplyScanner.isError($0) }) { touchErrors += 1 }
        }
        usleep(UInt32(settleSeconds * 1e6))
        let memory = child.memory()
        let status = child.stop()
        return Outcome(
            readyMilliseconds: ready, firstReplyState: state(of: reply ?? []),
            touchErrors: touchErrors,
            readyCPUMilliseconds: readyCPU, readyRssKiB: readyMemory?.rssKiB ?? -1, rssKiB: memory?.rssKiB ?? -1,
            peakKiB: memory?.peakKiB ?? -1,
            exitStatus: status)
    }

    /// The `state` parameter of a Roster.Get reply (`fresh`, `stale`, `warming`), or `error`/`?`.
    static func state(of reply: [UInt8]) -> String {
        if reply.withUnsafeBufferPointer({ ReplyScanner.isError($0) }) { return "error" }
        let text = String(decoding: reply, as: UTF8.self)
        guard let range = text.range(of: "\"state\":\"") else { return "?" }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }
}
