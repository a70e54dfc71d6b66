import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Leaves a Unix socket file behind with no listener, as a daemon killed by SIGKILL does.
enum StaleSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func create(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw Failure(description: "bind(\(path)) failed: errno \(errno)") }
        // Closed without listen(): the file stays, connect() gets ECONNREFUSED.
    }
}
