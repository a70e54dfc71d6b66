import FoundationEssentials
@preconcurrency import Glibc

/// systemd's readiness protocol (`sd_notify`), implemented directly: one datagram per state change to the
/// `AF_UNIX` socket named by `$NOTIFY_SOCKET` (a path, or an abstract name starting with `@`).
///
/// The protocol is small and stable, and linking libsystemd for it would add a dependency the daemon does
/// not otherwise need. Without `NOTIFY_SOCKET` (a plain user process, tests) every call is silent.
public final class SystemdNotifier: Sendable {
    private let address: Data?
    /// How often systemd expects `WATCHDOG=1` (`$WATCHDOG_USEC`), when it expects it from this process.
    public let watchdogInterval: Duration?

    /// The largest `WATCHDOG_USEC` taken (one year): systemd's own values are seconds or minutes, and a larger
    /// one, up to `18446744073709551615`, would overflow the arithmetic that turns it into a timer.
    public static let maxWatchdogMicroseconds: UInt64 = 365 * 24 * 3600 * 1_000_000

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    ///
    /// Values come from whoever started the process and are checked, never trusted: a `WATCHDOG_USEC` that is
    /// not a number from 1 µs to ``maxWatchdogMicroseconds``, or a `WATCHDOG_PID` that is not a pid, is logged
    /// on `log` and ignored (no watchdog), never a crash.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, log: DaemonLog = DaemonLog()
    ) {
        if let path = environment["NOTIFY_SOCKET"], !path.isEmpty, path.hasPrefix("/") || path.hasPrefix("@") {
            var bytes = Data(path.utf8)
            if path.hasPrefix("@") { bytes[bytes.startIndex] = 0 }
            address = bytes.count < 108 ? bytes : nil
        } else {
            address = nil
        }
        watchdogInterval = Self.watchdogInterval(environment, log: log)
    }

    private static func watchdogInterval(_ environment: [String: String], log: DaemonLog) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"] else { return nil }
        if let pidText = environment["WATCHDOG_PID"] {
            guard let pid = Int32(pidText), pid > 0 else {
                log.warning("ignoring WATCHDOG_PID=\(pidText.prefix(40)): not a process id; the watchdog stays off")
                return nil
            }
            guard pid == getpid() else { return nil }  // meant for another process (our parent): not an error
        }
        guard let usec = UInt64(text), usec >= 1, usec <= maxWatchdogMicroseconds else {
            log.warning(
                "ignoring WATCHDOG_USEC=\(text.prefix(40)): not a number of microseconds from 1 to "
                    + "\(maxWatchdogMicroseconds); the watchdog stays off (check WatchdogSec= in the unit)")
            return nil
        }
        return .microseconds(Int64(usec))
    }

    /// Whether a notify socket is configured (systemd `Type=notify`).
    public var isEnabled: Bool { address != nil }

    /// `READY=1` with a status line: the socket answers and the cache is loaded.
    public func ready(status: String? = nil) {
        send(["READY=1"] + (status.map { ["STATUS=\($0)"] } ?? []))
    }

    /// `STATUS=…`: the one-line summary `systemctl status` shows.
    public func status(_ text: String) { send(["STATUS=\(text)"]) }

    /// `RELOADING=1` with `MONOTONIC_USEC=` (required by `Type=notify-reload` semantics); follow with `ready`.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let usec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        send(["RELOADING=1", "MONOTONIC_USEC=\(usec)"])
    }

    /// `STOPPING=1`: shutdown has begun.
    public func stopping() { send(["STOPPING=1"]) }

    /// `WATCHDOG=1`: the service is alive.
    public func watchdog() { send(["WATCHDOG=1"]) }

    /// Sends one datagram with `lines` joined by newlines. Failures are ignored, as with `sd_notify`.
    public func send(_ lines: [String]) {
        guard let address else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        _ = withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            address.copyBytes(to: raw.bindMemory(to: UInt8.self), count: address.count)
        }
        // Abstract names are not NUL-terminated: the length says where they end.
        let isAbstract = address.first == 0
        let length = socklen_t(pathOffset + address.count + (isAbstract ? 0 : 1))
        let message = Data(lines.joined(separator: "\n").utf8)
        _ = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
    }
}
