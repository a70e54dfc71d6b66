import Foundation
import ShowcaseCore
import ShowcaseDaemon
import Testing

@Suite("URLSession transport against a loopback server", .serialized)
struct CurlTransportTests {
    func transport(_ server: LoopbackServer, maxResponseBytes: Int = 1 << 20) -> CurlTransport {
        CurlTransport(
            endpoint: server.endpoint, timeout: .seconds(5), maxResponseBytes: maxResponseBytes, version: "9.9.9")
    }

    func http(_ status: String, _ headers: [String] = [], length: Int?) -> String {
        (["HTTP/1.1 \(status)", "Connection: close"] + (length.map { ["Content-Length: \($0)"] } ?? []) + headers)
            .joined(separator: "\r\n") + "\r\n\r\n"
    }

    @Test("a 2xx answer returns the body exactly and the request names showcased without cookies")
    func success() async throws {
        let body = TestBed.fixtureData("roster-1641000001-jp.json")
        let server = try LoopbackServer(
            response: http(
                "200 OK", ["Content-Type: text/javascript; charset=utf-8", "Set-Cookie: a=b"],
                length: body.count),
            body: body)
        defer { server.stop() }
        let request = LookupRequest.roster(artistId: TestBed.artistId, storefront: TestBed.storefront("jp"))
        let received = try await transport(server).fetch(request)
        #expect(received == body)
        _ = try await transport(server).fetch(request)
        let head = try #require(server.requestHeads.last)
        #expect(head.hasPrefix("GET /lookup?id=1641000001&entity=software&limit=200&country=jp HTTP/1.1"))
        #expect(head.contains("User-Agent: showcased/9.9.9"))
        #expect(!head.lowercased().contains("cookie"))
    }

    @Test("HTTP 403 with an empty body is throttling, with Retry-After when given")
    func throttled403() async throws {
        let server = try LoopbackServer(response: http("403 Forbidden", ["Retry-After: 42"], length: 0))
        defer { server.stop() }
        await #expect(throws: LookupError.throttled(status: 403, retryAfter: .seconds(42))) {
            try await transport(server).fetch(.identity(bundleId: TestBed.tideLog, storefront: .unitedStates))
        }
    }

    @Test("HTTP 429 without Retry-After is throttling too")
    func throttled429() async throws {
        let server = try LoopbackServer(response: http("429 Too Many Requests", length: 0))
        defer { server.stop() }
        await #expect(throws: LookupError.throttled(status: 429, retryAfter: nil)) {
            try await transport(server).fetch(.identity(bundleId: TestBed.tideLog, storefront: .unitedStates))
        }
    }

    @Test("a Retry-After given as an HTTP date is a delay from the transport's clock, not from the machine's")
    func retryAfterDateFromClock() async throws {
        let server = try LoopbackServer(
            response: http("429 Too Many Requests", ["Retry-After: Wed, 21 Oct 2015 07:28:30 GMT"], length: 0))
        defer { server.stop() }
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_445_412_480))  // Wed, 21 Oct 2015 07:28:00 GMT
        let transport = CurlTransport(endpoint: server.endpoint, timeout: .seconds(5), version: "1", clock: clock)
        await #expect(throws: LookupError.throttled(status: 429, retryAfter: .seconds(30))) {
            try await transport.fetch(.identity(bundleId: TestBed.tideLog, storefront: .unitedStates))
        }
    }

    @Test("a 5xx is a transport error that names the status")
    func serverError() async throws {
        let server = try LoopbackServer(response: http("503 Service Unavailable", length: 0))
        defer { server.stop() }
        await #expect(throws: LookupError.httpStatus(503)) {
            try await transport(server).fetch(.identity(bundleId: TestBed.tideLog, storefront: .unitedStates))
        }
    }

    @Test("a body over max_response_bytes is malformed")
    func oversizedBody() async throws {
        let body = TestBed.fixtureData("roster-1641000001-us.json")
        let server = try LoopbackServer(response: http("200 OK", length: body.count), body: body)
        defer { server.stop() }
        await #expect {
            try await transport(server, maxResponseBytes: 1024).fetch(
                .roster(artistId: TestBed.artistId, storefront: .unitedStates))
        } throws: { error in
            guard case .malformed(let detail) = error as? LookupError else { return false }
            return detail.contains("max_response_bytes")
        }
    }

    @Test("a body that streams past max_response_bytes without a Content-Length is cut off as malformed")
    func oversizedStream() async throws {
        let body = TestBed.fixtureData("roster-1641000001-us.json")
        let server = try LoopbackServer(response: http("200 OK", length: nil), body: body)
        defer { server.stop() }
        await #expect {
            try await transport(server, maxResponseBytes: 4096).fetch(
                .roster(artistId: TestBed.artistId, storefront: .unitedStates))
        } throws: { error in
            guard case .malformed(let detail) = error as? LookupError else { return false }
            return detail.contains("max_response_bytes")
        }
        let whole = try await transport(server).fetch(.roster(artistId: TestBed.artistId, storefront: .unitedStates))
        #expect(whole == body)
    }

    @Test("an upstream that never answers is a timeout, a transport error")
    func hungUpstream() async throws {
        let server = try LoopbackServer(response: "", silent: true)
        defer { server.stop() }
        let transport = CurlTransport(endpoint: server.endpoint, timeout: .milliseconds(300), version: "1")
        await #expect(throws: LookupError.timeout(.milliseconds(300))) {
            try await transport.fetch(.identity(bundleId: TestBed.tideLog, storefront: .unitedStates))
        }
    }

    @Test("a refused connection is a connection error")
    func refused() async throws {
        let server = try LoopbackServer(response: "")
        let endpoint = server.endpoint
        server.stop()
        let transport = CurlTransport(endpoint: endpoint, timeout: .seconds(5), version: "1")
        // Specifically `.connection`: a refused port mapped to a timeout, an HTTP status or a malformed body
        // would send the operator looking in the wrong place.
        let error = await #expect(throws: LookupError.self) {
            try await transport.fetch(.identity(bundleId: TestBed.tideLog, storefront: .unitedStates))
        }
        guard case .connection(let detail) = error else {
            Issue.record("expected LookupError.connection for a refused port, got \(String(describing: error))")
            return
        }
        #expect(!detail.isEmpty, "the connection error names what failed")
    }
}
