import CSystem
import FoundationEssentials
import Locking

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A Varlink server on Unix stream sockets, driven by one epoll event-loop thread.
///
/// Typical use:
/// ```swift
/// var service = VarlinkService(vendor: "…", product: "…", version: "1", url: "…")
/// try service.add(interface)
/// let server = try VarlinkServer(service: service)
/// try server.bind(path: "/run/showcased/socket", mode: 0o660)   // or adopt(listeningDescriptor: 3)
/// try server.start()
/// …
/// server.shutdown(gracePeriod: .seconds(5))
/// ```
/// Handlers run on the loop thread; see `VarlinkInterface.Handler` for the fast and slow paths.
public final class VarlinkServer: @unchecked Sendable {
    let loop: ServerLoop
    /// Guards `started`, `stopped` and `boundPaths`.
    private let stateLock = Lock(())
    private var started = false
    private var stopped = false
    private var boundPaths: [String] = []

    /// Creates a server for `service`; nothing listens until `bind`/`adopt` and `start`. Idle timeouts and the
    /// shutdown grace period are measured on `clock`.
    public init(service: VarlinkService, limits: Limits = Limits(), clock: Clock = .continuous) throws(VarlinkError) {
        loop = try ServerLoop(service: service, limits: limits, clock: clock)
    }

    /// "socket path too long: N bytes, the limit is 107" when `path` cannot fit `sockaddr_un` (108 bytes with
    /// its NUL), else nil. Said before anything else is tried: the kernel's ENAMETOOLONG reads as a generic
    /// failure, and a client would take the missing daemon for a stopped one.
    public static func socketPathTooLong(_ path: String) -> String? {
        let limit = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
        let length = path.utf8.count
        return length > limit ? "socket path too long: \(length) bytes, the limit is \(limit)" : nil
    }

    /// Binds and listens on the Unix socket `path`, creating its parent directory and setting
    /// the socket file's permission bits to `mode`.
    ///
    /// A socket file left behind by a crashed process (nobody accepts on it) is replaced. A
    /// socket another process is still serving is never taken over: that throws `.bindFailed`,
    /// so two daemons cannot silently split the clients between them. Call before `start()`.
    public func bind(path: String, mode: mode_t = 0o666) throws(VarlinkError) {
        try requireNotStarted()
        if let tooLong = Self.socketPathTooLong(path) {
            throw VarlinkError(code: .bindFailed, detail: tooLong + "; choose a shorter path.")
        }
        let directory = Self.directory(of: path)
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw VarlinkError(
                    code: .bindFailed,
                    detail: "Could not create the socket directory \(directory); check its parent's permissions.")
            }
        }
        // The mode is set as the socket file is made (csys_unix_listen_mode), never by a chmod of the path after it.
        var fd = csys_unix_listen_mode(path, SOMAXCONN, UInt32(mode))
        if fd == -EADDRINUSE {
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw VarlinkError(
                    code: .bindFailed, detail: "\(path) exists and is not a socket; remove it or choose another path.")
            }
            let probe = csys_unix_connect(path)
            if probe >= 0 {
                _ = csys_close(probe)
                throw VarlinkError(
                    code: .bindFailed,
                    detail: "Another process is already serving \(path); stop it before starting this one.")
            }
            unlink(path)
            fd = csys_unix_listen_mode(path, SOMAXCONN, UInt32(mode))
        }
        guard fd >= 0 else {
            throw VarlinkError(
                code: .bindFailed,
                detail: "Could not listen on \(path): \(errnoText(-fd)). Check the path and permissions.")
        }
        stateLock.withLock { _ in boundPaths.append(path) }
        loop.addListener(fd)
    }

    /// Serves an already-listening socket, such as one passed by systemd socket activation
    /// (`LISTEN_FDS`, descriptor 3 onwards). The descriptor is made nonblocking and owned by
    /// the server from now on. Call before `start()`.
    public func adopt(listeningDescriptor fd: Int32) throws(VarlinkError) {
        try requireNotStarted()
        guard csys_is_listening_socket(fd) == 1 else {
            throw VarlinkError(
                code: .bindFailed, detail: "Descriptor \(fd) is not a listening socket; check the socket unit.")
        }
        _ = csys_set_nonblocking(fd, 1)
        loop.addListener(fd)
    }

    /// Serves one already-connected stream socket (for example one end of a socketpair) as if
    /// it had been accepted. Safe from any thread once started.
    public func serve(connectedDescriptor fd: Int32) {
        loop.post(.adopt(fd: fd))
    }

    private func requireNotStarted() throws(VarlinkError) {
        let late = stateLock.withLock { _ in started || stopped }
        if late {
            throw VarlinkError(
                code: .bindFailed, detail: "Listeners must be added before the server starts; add them, then start().")
        }
    }

    /// Starts the event-loop thread. A server without listeners is allowed: it can still serve
    /// descriptors passed to `serve(connectedDescriptor:)`.
    public func start() throws(VarlinkError) {
        stateLock.withLock { _ in
            guard !started else { return }
            started = true
            let loop = self.loop
            startDetachedThread(named: "varlink-server") { loop.run() }
        }
    }

    /// Number of open client connections (for status output and tests).
    public var connectionCount: Int {
        loop.connectionCountLock.withLock { _ in loop.publishedConnectionCount }
    }

    /// Stops accepting (closing and unlinking the listening sockets it bound), lets calls in
    /// flight finish and their replies be written for up to `gracePeriod`, then closes every
    /// connection and ends the loop. Blocks until done. Streams (`more` calls) still open at
    /// the deadline are cut, and their responders see `isConnectionClosed`.
    public func shutdown(gracePeriod: Duration = .seconds(5)) {
        beginShutdown(gracePeriod: gracePeriod)
        wait()
    }

    /// Starts ``shutdown(gracePeriod:)`` and returns at once: the grace period runs on the server's clock from
    /// now, and ``wait()`` or ``waitUntilStopped()`` tells when the loop has ended. Later calls do nothing.
    public func beginShutdown(gracePeriod: Duration = .seconds(5)) {
        let (wasStarted, alreadyStopped, paths) = stateLock.withLock { _ in
            let before = (started, stopped, boundPaths)
            stopped = true
            return before
        }
        guard !alreadyStopped else { return }
        for path in paths { unlink(path) }
        guard wasStarted else {
            for listener in loop.listeners { _ = csys_close(listener) }
            loop.completion.finish()
            return
        }
        let (deadline, overflow) = loop.now().addingReportingOverflow(ServerLoop.nanoseconds(gracePeriod))
        loop.post(.shutdown(deadline: overflow ? .max : deadline))
    }

    /// Blocks until the server has shut down.
    public func wait() {
        loop.completion.wait()
    }

    /// Suspends until the server has shut down, without holding a thread.
    public func waitUntilStopped() async {
        await loop.completion.wait()
    }

    /// The directory part of a socket path, as `NSString.deletingLastPathComponent` gave it: "" for a bare name,
    /// "/" for a file in the root.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
