import Foundation
import ShowcaseCore
import ShowcaseDaemon
import Testing

/// The transport's own bounds, in process against a raw loopback server: what a hostile upstream can make
/// one fetch do.
@Suite("Transport bounds against a hostile upstream", .serialized)
struct TransportBoundsTests {
    func transport(_ server: LoopbackServer, maxResponseBytes: Int = 1 << 20) -> CurlTransport {
        CurlTransport(
            endpoint: server.endpoint, timeout: .seconds(5), maxResponseBytes: maxResponseBytes, version: "9.9.9")
    }

    /// `gzip -c` of `data`, by Debian's gzip.
    func gzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }

    let request = LookupRequest.roster(artistId: TestBed.artistId, storefront: TestBed.storefront("jp"))

    @Test("a 301 is answered as it is, never followed: a transport failure naming the status")
    func redirect() async throws {
        let target = try LoopbackServer(
            response: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n", body: Data("{}".utf8))
        defer { target.stop() }
        let server = try LoopbackServer(
            response: "HTTP/1.1 301 Moved Permanently\r\nConnection: close\r\nLocation: \(target.endpoint)"
                + "\r\nContent-Length: 0\r\n\r\n")
        defer { server.stop() }
        await #expect(throws: LookupError.httpStatus(301)) { try await transport(server).fetch(request) }
        #expect(target.requestHeads.isEmpty, "the redirect was followed")
    }

    @Test("a gzip body is decoded, asked for as gzip only, and its decoded size is what the cap counts")
    func gzipCountsDecodedBytes() async throws {
        let body = TestBed.fixtureData("roster-1641000001-jp.json")
        let compressed = try gzip(body)
        #expect(compressed.count < body.count / 2)
        let head =
            "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Encoding: gzip\r\nContent-Length: \(compressed.count)\r\n\r\n"
        let server = try LoopbackServer(response: head, body: compressed)
        defer { server.stop() }
        #expect(try await transport(server).fetch(request) == body)
        let sent = try #require(server.requestHeads.last).lowercased()
        #expect(sent.contains("accept-encoding: gzip\r\n"))
        // Compressed, the body fits the cap; decoded it does not.
        await #expect {
            try await transport(server, maxResponseBytes: body.count - 1).fetch(request)
        } throws: { error in
            guard case .malformed(let detail) = error as? LookupError else { return false }
            return detail.contains("max_response_bytes")
        }
    }

    @Test("the deadline is exact to the millisecond, not rounded to whole seconds")
    func exactDeadline() async throws {
        let server = try LoopbackServer(response: "", silent: true)
        defer { server.stop() }
        let transport = CurlTransport(endpoint: server.endpoint, timeout: .milliseconds(1500), version: "1")
        let started = ContinuousClock.now
        await #expect(throws: LookupError.timeout(.milliseconds(1500))) { try await transport.fetch(request) }
        // FoundationNetworking rounded 1.5 s down to 1 s: the request must not give up before its deadline.
        #expect(ContinuousClock.now - started >= .milliseconds(1450))
    }
}
