import Foundation
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

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let path = environment["NOTIFY_SOCKET"], !path.isEmpty, path.hasPrefix("/") || path.hasPrefix("@") {
            var bytes = Data(path.utf8)
            if path.hasPrefix("@") { bytes[bytes.startIndex] = 0 }
            address = bytes.count < 108 ? bytes : nil
        } else {
            address = nil
        }
        let pidMatches = environment["WATCHDOG_PID"].flatMap { Int32($0) }.map { $0 == getpid() } ?? true
        if pidMatches, let usec = environment["WATCHDOG_USEC"].flatMap({ UInt64($0) }), usec > 0 {
            watchdogInterval = .microseconds(Int64(usec))
        } else {
            watchdogInterval = nil
        }
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
