import Foundation
@preconcurrency import Glibc

/// A datagram socket bound in a temporary directory, standing in for journald's
/// `/run/systemd/journal/socket`; it parses what arrives as the native journal protocol.
final class JournalListener {
    private(set) var fd: Int32
    let directory: URL
    let path: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("socket").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in raw.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw HarnessError("cannot bind the journal socket at \(path)") }
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops receiving, leaving the socket file in place, as a journald that went away does.
    func stop() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    /// The next datagram's raw bytes (waits at most 15 s).
    func receiveRaw() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { throw HarnessError("no journal record arrived") }
        return Array(buffer[..<n])
    }

    /// The next record's fields in the order sent (waits at most 15 s).
    func receive() throws -> [(name: String, value: String)] {
        try Self.parse(receiveRaw())
    }

    /// Receives records until one satisfies `done` (waits at most 15 s for each).
    func receive(until done: ([String: String]) -> Bool) throws -> [String: String] {
        while true {
            let fields = Dictionary(try receive().map { ($0.name, $0.value) }) { _, last in last }
            if done(fields) { return fields }
        }
    }

    /// Whether a datagram is waiting, without waiting for one.
    func hasPending() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) >= 0
    }

    /// Parses journald's native protocol: `NAME=value\n`, or `NAME\n` + 64-bit little-endian length + value +
    /// `\n`; throws on anything else, so a malformed record fails the test.
    static func parse(_ bytes: [UInt8]) throws -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        var index = 0
        while index < bytes.count {
            guard let end = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\n") })
            else { throw HarnessError("a field without = or newline at byte \(index)") }
            let name = String(decoding: bytes[index..<end], as: UTF8.self)
            if bytes[end] == UInt8(ascii: "=") {
                guard let lineEnd = bytes[end...].firstIndex(of: UInt8(ascii: "\n")) else {
                    throw HarnessError("field \(name) is not terminated by a newline")
                }
                fields.append((name, String(decoding: bytes[(end + 1)..<lineEnd], as: UTF8.self)))
                index = lineEnd + 1
            } else {
                guard end + 9 <= bytes.count else { throw HarnessError("field \(name) lacks its length") }
                var length: UInt64 = 0
                for (shift, byte) in bytes[(end + 1)..<(end + 9)].enumerated() {
                    length |= UInt64(byte) << (8 * UInt64(shift))
                }
                let start = end + 9
                guard length <= UInt64(bytes.count - start), start + Int(length) < bytes.count,
                    bytes[start + Int(length)] == UInt8(ascii: "\n")
                else { throw HarnessError("field \(name)'s binary value is cut short or not newline-terminated") }
                fields.append((name, String(decoding: bytes[start..<(start + Int(length))], as: UTF8.self)))
                index = start + Int(length) + 1
            }
        }
        return fields
    }
}
