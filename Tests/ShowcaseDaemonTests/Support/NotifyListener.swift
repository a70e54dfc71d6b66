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
        // The kernel stamps each datagram when it is sent, so a test can order it against other events.
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_TIMESTAMP, &one, socklen_t(MemoryLayout<Int32>.size))
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

    /// Like ``receive(until:)``, also returning when the kernel queued that datagram (`SCM_TIMESTAMP`), i.e.
    /// when the daemon sent it, however late the test reads it.
    func receiveStamped(until done: ([String]) -> Bool) throws -> (lines: [String], sentAt: Date) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var control = [UInt8](repeating: 0, count: 256)
        while true {
            var stamp: Date?
            let n = buffer.withUnsafeMutableBytes { data in
                control.withUnsafeMutableBytes { controlBytes in
                    var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var message = msghdr()
                        message.msg_iov = vectorPointer
                        message.msg_iovlen = 1
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlBytes.count
                        let n = recvmsg(fd, &message, 0)
                        // One cmsghdr (16 bytes on 64-bit Linux) then a timeval, when SO_TIMESTAMP applied.
                        let header = controlBytes.load(as: cmsghdr.self)
                        if n > 0, message.msg_controllen >= 16 + MemoryLayout<timeval>.size,
                            header.cmsg_level == SOL_SOCKET, header.cmsg_type == SO_TIMESTAMP
                        {
                            let time = controlBytes.load(fromByteOffset: 16, as: timeval.self)
                            stamp = Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_usec) / 1e6)
                        }
                        return n
                    }
                }
            }
            guard n > 0 else { throw HarnessError("no notification arrived") }
            let lines = String(decoding: buffer[..<n], as: UTF8.self).split(separator: "\n").map(String.init)
            guard done(lines) else { continue }
            guard let stamp else { throw HarnessError("the notification carried no kernel timestamp") }
            return (lines, stamp)
        }
    }
}
