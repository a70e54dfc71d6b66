import Foundation
import Testing

@testable import Varlink

@Suite("Client")
struct ClientTests {
    @Test("times out a call the service does not answer in time, and closes that connection")
    func timeout() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let error = #expect(throws: VarlinkError.self) {
            try client.callSync(
                "org.example.test.Slow", ["delayMs": 3000, "tag": "never"], timeout: .milliseconds(100))
        }
        #expect(error?.code == .timeout)
        let after = #expect(throws: VarlinkError.self) { try client.callSync("org.example.test.Echo") }
        #expect(after?.code == .connectionClosed)
        expectStillServed(try server.client())
    }

    @Test("reports a missing socket as a connection failure with advice")
    func connectFailure() {
        let error = #expect(throws: VarlinkError.self) {
            try VarlinkClient(path: "/tmp/varlink-tests-nonexistent/none.sock")
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.description.contains("is the service running?") == true)
    }

    @Test("calls asynchronously and maps error replies to typed errors with name and parameters")
    func asyncCalls() async throws {
        let server = try TestServer.forAsyncCalls()
        defer { server.stop() }
        let client = try server.client()
        #expect(try await client.call("org.example.test.Echo", ["k": [1, 2]]) == ["k": [1, 2]])
        do {
            _ = try await client.call("org.example.test.Missing")
            Issue.record("expected an error")
        } catch {
            #expect(error.name == "org.varlink.service.MethodNotFound")
            #expect(error.parameters == ["method": "org.example.test.Missing"])
        }
    }

    @Test("encodes typed parameters and decodes typed replies")
    func typedCalls() async throws {
        struct Query: Encodable { var value: [String: Int] }
        struct Answer: Decodable, Equatable { var value: [String: Int] }
        let server = try TestServer.forAsyncCalls()
        defer { server.stop() }
        let answer = try await server.client().call(
            "org.example.test.Echo", Query(value: ["a": 1]), returning: Answer.self)
        #expect(answer == Answer(value: ["a": 1]))
    }

    @Test("yields a streaming call's replies as an async sequence until the final one")
    func asyncStream() async throws {
        let server = try TestServer.forAsyncCalls()
        defer { server.stop() }
        var indices: [Int64] = []
        for try await reply in try server.client().stream("org.example.test.Count", ["count": 5]) {
            indices.append(reply["index"]?.intValue ?? -1)
        }
        #expect(indices == [0, 1, 2, 3, 4])
    }

    @Test("ends a stream by throwing the service's error reply")
    func streamError() async throws {
        let server = try TestServer.forAsyncCalls()
        defer { server.stop() }
        let stream = try server.client().stream("org.example.test.Count", ["count": "x"])
        await #expect(throws: VarlinkError.self) {
            for try await _ in stream {}
        }
    }

    @Test("reports continues flags to a synchronous streaming call")
    func syncStream() throws {
        let server = try TestServer()
        defer { server.stop() }
        var seen: [(Int64, Bool)] = []
        try server.client().callMoreSync("org.example.test.Count", ["count": 3]) { reply, continues in
            seen.append((reply["index"]?.intValue ?? -1, continues))
            return true
        }
        #expect(seen.map(\.0) == [0, 1, 2])
        #expect(seen.map(\.1) == [true, true, false])
    }

    @Test("sends oneway calls without waiting for a reply")
    func onewayClient() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        try client.sendOneway("org.example.test.Notify", ["text": "bye"])
        expectStillServed(client)
        #expect(server.observations.all == ["notify:bye:oneway=true"])
    }
}
