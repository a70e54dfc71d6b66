import CSystem
import Foundation
@preconcurrency import Glibc

/// The `Watch` fan-out row: `subscribers` connections each watch one storefront, the daemon's RSS is read
/// with all of them connected, then `Admin.Refresh` (after the lookup server was given a changed roster) makes
/// a new revision, and every subscriber's arrival time of it is compared with the cache file's mtime.
enum FanoutProbe {
    struct Outcome {
        var timing: FanoutTiming
        var revisionBefore: Int
        var revisionAfter: Int
        var rssKiB: Int
        /// The daemon's RSS before any subscriber connected: the baseline beside `rssKiB`.
        var rssBeforeKiB: Int
        var errors: Int
        var refreshMilliseconds: Double
        var refreshReply: String
    }

    /// One subscriber: its socket, unread bytes, and what it has seen.
    private final class Subscriber {
        let fd: Int32
        var reader = WatchReplyReader()
        var firstRevision: Int?
        var newRevisionAt: Int64?
        var newRevision: Int?
        var failed = false
        init(fd: Int32) { self.fd = fd }
    }

    static func run(
        socketPath: String, subscribers count: Int, watchCall: String, refreshCall: String, cacheDirectory: String,
        cachePrefix: String, serverPid: Int32, timeoutSeconds: Double, beforeRefresh: () throws(BenchError) -> Void = {}
    ) throws(BenchError) -> Outcome {
        signal(SIGPIPE, SIG_IGN)
        raiseFileLimit()
        let rssBefore = memoryKiB(serverPid)
        var subscribers: [Subscriber] = []
        defer { for subscriber in subscribers { close(subscriber.fd) } }
        let call = Array(watchCall.utf8) + [0]
        for _ in 0..<count {
            let fd = try UnixSocket.connect(path: socketPath)
            subscribers.append(Subscriber(fd: fd))
            let written = call.withUnsafeBytes { UnixSocket.writeAll(fd, $0.baseAddress!, $0.count) }
            guard written else { throw BenchError("could not send Watch: \(UnixSocket.errorText())") }
        }
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(seconds: timeoutSeconds)
        var errors = 0
        pump(subscribers, until: deadline, errors: &errors) { $0.firstRevision != nil || $0.failed }
        let initial = subscribers.compactMap(\.firstRevision)
        guard initial.count == count, let revisionBefore = initial.max() else {
            throw BenchError(
                "only \(initial.count) of \(count) Watch subscribers got the current state; see the daemon's log")
        }
        usleep(500_000)
        let rss = memoryKiB(serverPid)
        try beforeRefresh()

        let refreshStart = MonotonicClock.now()
        let refreshResult = NSLockedResult()
        let thread = Thread {
            let reply = try? VarlinkProbe.call(socketPath: socketPath, refreshCall, timeoutSeconds: timeoutSeconds)
            refreshResult.set(reply.map { String(decoding: $0, as: UTF8.self) } ?? "no reply", MonotonicClock.now())
        }
        thread.start()
        pump(subscribers, until: deadline, errors: &errors) { $0.newRevisionAt != nil || $0.failed }
        while refreshResult.get() == nil, MonotonicClock.now() < deadline { usleep(1000) }
        let (refreshReply, refreshEnd) = refreshResult.get() ?? ("no reply", MonotonicClock.now())
        guard let writtenAt = latestModification(directory: cacheDirectory, prefix: cachePrefix) else {
            throw BenchError("no cache file \(cachePrefix)* in \(cacheDirectory): the refresh wrote nothing")
        }
        return Outcome(
            timing: FanoutTiming(writtenAt: writtenAt, receivedAt: subscribers.map(\.newRevisionAt)),
            revisionBefore: revisionBefore, revisionAfter: subscribers.compactMap(\.newRevision).min() ?? -1,
            rssKiB: rss, rssBeforeKiB: rssBefore, errors: errors,
            refreshMilliseconds: Double(refreshEnd &- refreshStart) / 1e6,
            refreshReply: String(refreshReply.prefix(300)))
    }

    /// Reads every subscriber's replies until `done` holds for all of them or `deadline` passes.
    ///
    /// epoll, not poll(): a wake costs what is ready, not a scan of a thousand descriptors, so the client's own
    /// time does not pile onto the arrival times it records (each is read right after its wake).
    private static func pump(
        _ subscribers: [Subscriber], until deadline: UInt64, errors: inout Int, done: (Subscriber) -> Bool
    ) {
        let poller = csys_epoll_create()
        guard poller >= 0 else { return }
        defer { close(poller) }
        var remaining = 0
        for (index, subscriber) in subscribers.enumerated() where !done(subscriber) {
            _ = csys_epoll_add(poller, subscriber.fd, UInt32(CSYS_EPOLLIN), UInt64(index))
            remaining += 1
        }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var events = [csys_event](repeating: csys_event(), count: 256)
        while remaining > 0, MonotonicClock.now() < deadline {
            let ready = events.withUnsafeMutableBufferPointer {
                csys_epoll_wait(poller, $0.baseAddress, Int32($0.count), 50)
            }
            if ready <= 0 { continue }
            for event in events[0..<Int(ready)] {
                let subscriber = subscribers[Int(event.data)]
                if done(subscriber) { continue }
                let received = buffer.withUnsafeMutableBytes {
                    recv(subscriber.fd, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT))
                }
                let now = realtimeNanoseconds()
                if received < 0, errno == EAGAIN || errno == EINTR { continue }
                if received <= 0 {
                    subscriber.failed = true
                    errors += 1
                } else {
                    buffer.withUnsafeBufferPointer { bytes in
                        consume(UnsafeBufferPointer(rebasing: bytes[0..<received]), by: subscriber, at: now, &errors)
                    }
                }
                if done(subscriber) {
                    _ = csys_epoll_del(poller, subscriber.fd)
                    remaining -= 1
                }
            }
        }
    }

    /// Notes the revision of each reply `bytes` completes for `subscriber`: the first is its initial state, the
    /// first higher one the new revision, stamped `now` (when the read returned).
    private static func consume(
        _ bytes: UnsafeBufferPointer<UInt8>, by subscriber: Subscriber, at now: Int64, _ errors: inout Int
    ) {
        var failed = false
        subscriber.reader.read(bytes) { revision in
            guard !failed else { return }
            guard let revision else {
                failed = true
                return
            }
            if subscriber.firstRevision == nil {
                subscriber.firstRevision = revision
            } else if revision > (subscriber.firstRevision ?? .max), subscriber.newRevisionAt == nil {
                subscriber.newRevisionAt = now
                subscriber.newRevision = revision
            }
        }
        if failed {
            subscriber.failed = true
            errors += 1
        }
    }

    /// The newest mtime (wall-clock ns) of the files in `directory` whose names start with `prefix`.
    private static func latestModification(directory: String, prefix: String) -> Int64? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var latest: Int64?
        for name in names where name.hasPrefix(prefix) {
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0 else { continue }
            let time = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
            latest = max(latest ?? time, time)
        }
        return latest
    }

    static func realtimeNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    private static func memoryKiB(_ pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return -1 }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
    }

    /// A thousand sockets need more than the usual soft limit of 1,024 descriptors: take the hard limit.
    private static func raiseFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
