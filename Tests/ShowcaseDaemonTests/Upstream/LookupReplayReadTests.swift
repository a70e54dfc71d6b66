import Foundation
import Testing

@testable import LookupReplay

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

@Suite("LookupReplay reading a request")
struct LookupReplayReadTests {
    /// A recv(2) stand-in that hands out `pieces` in turn; `nil` is a read interrupted by a signal (-1, EINTR).
    private final class Pieces {
        var pieces: [String?]
        init(_ pieces: [String?]) { self.pieces = pieces }

        func receive(_ buffer: UnsafeMutableRawPointer, _ capacity: Int) -> Int {
            guard !pieces.isEmpty else { return 0 }
            guard let piece = pieces.removeFirst() else {
                errno = EINTR
                return -1
            }
            let bytes = Array(piece.utf8)
            precondition(bytes.count <= capacity)
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            return bytes.count
        }
    }

    @Test("a read interrupted by a signal is retried, in the head and in the body: the request is answered")
    func interruptedReadsRetried() throws {
        let pieces = Pieces([
            nil, "POST /_replay/override?name=x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n", nil,
            "\r\nab", nil, "cde",
        ])
        let request = try #require(LookupReplayServer.readRequest(receiving: pieces.receive))
        #expect(request.path == "/_replay/override")
        #expect(request.body == Data("abcde".utf8))
    }

    @Test("a peer gone before the head ends is no request")
    func peerGone() {
        let pieces = Pieces(["GET /lookup?id=1 HTTP/1.1\r\n"])
        #expect(LookupReplayServer.readRequest(receiving: pieces.receive) == nil)
    }
}
