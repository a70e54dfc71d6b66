import Foundation
@preconcurrency import Glibc

/// An abstract-namespace datagram socket standing in for systemd's notify socket.
final class NotifyListener {
    let fd: Int32
    let address: String

    init() throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let name = "showcased-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        address = "@" + name
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = [UInt8(0)] + Array(name.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            bytes.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard result == 0 else { throw HarnessError("cannot bind the notify socket") }
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Receives datagrams until one satisfies `done`; returns that datagram's lines.
    func receive(until done: ([String]) -> Bool) throws -> [String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { throw HarnessError("no notification arrived") }
            let lines = String(decoding: buffer[..<n], as: UTF8.self).split(separator: "\n").map(String.init)
            if done(lines) { return lines }
        }
    }
}
