import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A one-shot HTTP/1.1 server on 127.0.0.1 for transport tests: answers every connection with `response`
/// and records the request heads it received. No network beyond loopback.
final class LoopbackServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let response: Data
    private let lock = NSLock()
    private var heads: [String] = []
    private var held: [Int32] = []
    private let silent: Bool

    /// `silent`: accept and read, but never answer (a hung upstream), until ``stop()``.
    init(response: String, body: Data = Data(), silent: Bool = false) throws {
        self.silent = silent
        var data = Data(response.utf8)
        data.append(body)
        self.response = data
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        _ = self.listener
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/lookup")! }

    var requestHeads: [String] { lock.withLock { heads } }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                // The listening socket is closed here, by its own thread (see stop()).
                close(listener)
                return
            }
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !received.contains(sequence: Array("\r\n\r\n".utf8)) {
                let count = read(client, &buffer, buffer.count)
                if count <= 0 { break }
                received += buffer[0..<count]
            }
            lock.withLock { heads.append(String(decoding: received, as: UTF8.self)) }
            if silent {
                lock.withLock { held.append(client) }
                continue
            }
            response.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(client, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(client)
        }
    }

    /// Stops accepting. Only `shutdown`: the serving thread closes the listening socket, so it never calls
    /// `accept` on a number another server in this process has been given since (and takes its connection).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        for client in lock.withLock({ held }) { close(client) }
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(sequence: [UInt8]) -> Bool {
        guard count >= sequence.count else { return false }
        for start in 0...(count - sequence.count) where Array(self[start..<start + sequence.count]) == sequence {
            return true
        }
        return false
    }
}
