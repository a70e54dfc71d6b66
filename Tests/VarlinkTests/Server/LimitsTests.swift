import CSystem
import Foundation
import Testing

@testable import Varlink

@Suite("Limits: each one stops the offender and nobody else")
struct LimitsTests {
    @Test("disconnects a client sending a 2 MiB message while another client is served")
    func oversizedMessage() throws {
        let server = try TestServer()
        defer { server.stop() }
        let good = try server.client()
        let bad = try server.raw()
        let body = String(repeating: "a", count: 2 << 20)
        bad.send(#"{"method":"org.example.test.Echo","parameters":{"s":""# + body + "\"}}\u{0}")
        #expect(bad.isClosedByServer())
        expectStillServed(good)
    }

    @Test("accepts a message just under the limit")
    func largeButAllowed() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let body = String(repeating: "b", count: 1 << 19)
        let reply = try client.callSync("org.example.test.Echo", ["s": .string(body)])
        #expect(reply["s"]?.stringValue?.count == body.count)
    }

    @Test("closes 2,000 connection attempts over the cap while connected clients are served")
    func connectionCap() throws {
        let cap = 4
        let server = try TestServer(limits: .init(maxConnections: cap))
        defer { server.stop() }
        let good = try server.client()
        let holders = try (1..<cap).map { _ in try server.client() }
        for holder in holders { expectStillServed(holder) }
        var refused = 0
        for _ in 0..<2000 {
            let fd = csys_unix_connect(server.path)
            if fd < 0 {
                refused += 1
                continue
            }
            let attempt = RawPeer(fd: fd)
            if attempt.isClosedByServer() { refused += 1 }
        }
        #expect(refused == 2000)
        expectStillServed(good)
        #expect(server.server.connectionCount == cap)
    }

    @Test("drops an idle client once the server's clock passes the idle timeout, while an active one stays")
    func idleTimeout() throws {
        // An hour on a clock moved by hand: real time never closes anything here, only the clock does.
        let clock = ManualServerClock()
        let server = try TestServer(limits: .init(idleTimeout: .seconds(3600)), clock: clock.serverClock)
        defer { server.stop() }
        let idle = try server.raw()
        expectAnswered(idle)
        let active = try server.client()
        expectStillServed(active)

        // A second short of the timeout: the sweep that follows (it runs after the batch of the first call below,
        // so it is done when the second is answered) leaves both connections open.
        clock.advance(by: .seconds(3599))
        expectStillServed(active)
        expectStillServed(active)
        #expect(idle.isOpenNow, "closed before its idle timeout")

        // Past it for the idle connection only (the active one called a second ago, by the clock).
        clock.advance(by: .seconds(2))
        #expect(idle.isClosedByServer())
        expectStillServed(active)
    }

    @Test("keeps a client with a call in flight even past the idle timeout")
    func busyIsNotIdle() throws {
        let clock = ManualServerClock()
        let server = try TestServer(limits: .init(idleTimeout: .milliseconds(100)), clock: clock.serverClock)
        defer { server.stop() }
        let watcher = try server.raw()
        watcher.send(call("org.example.test.Watch", more: true))
        #expect(watcher.receive() == ["continues": true, "parameters": ["tick": 0]])
        let other = try server.raw()
        expectAnswered(other)
        // Far past the timeout: the sweep that closes the quiet connection has looked at the watcher too.
        clock.advance(by: .seconds(60))
        #expect(other.isClosedByServer(), "the quiet connection outlived the idle timeout")
        #expect(watcher.isOpenNow, "a connection with a call in flight was closed as idle")
    }

    @Test(
        "disconnects a client sending garbage, invalid UTF-8 or a non-object, and serves the others",
        arguments: [
            Array("this is not json\u{0}".utf8),
            [0xFF, 0xFE, 0x00],
            Array(#"{"method":"org.example.test.Echo","parameters":{"s":""#.utf8) + [0xC3, 0x28]
                + Array("\"}}\u{0}".utf8),
            Array("[1,2,3]\u{0}".utf8),
            Array(#"{"parameters":{}}"#.utf8) + [0],
            Array(#"{"method":42}"#.utf8) + [0],
            Array(#"{"method":"org.example.test.Echo","parameters":{"n":1e400}}"#.utf8) + [0],
        ] as [[UInt8]])
    func garbage(bytes: [UInt8]) throws {
        let server = try TestServer()
        defer { server.stop() }
        let good = try server.client()
        let bad = try server.raw()
        bad.send(bytes)
        #expect(bad.isClosedByServer())
        expectStillServed(good)
    }

    @Test("disconnects a client that never reads once its unread replies pass the output cap")
    func slowReader() throws {
        let server = try TestServer(limits: .init(maxPendingOutputBytes: 256 << 10))
        defer { server.stop() }
        let good = try server.client()
        let bad = try server.raw()
        let big = String(repeating: "c", count: 64 << 10)
        var stillOpen = true
        for _ in 0..<200 where stillOpen {
            stillOpen = bad.send(call("org.example.test.Echo", ["s": .string(big)]))
        }
        #expect(bad.isClosedByServer())
        expectStillServed(good)
    }

    @Test("disconnects a client pipelining more calls than the in-flight cap, and serves the others")
    func callsInFlight() throws {
        let server = try TestServer(limits: .init(maxCallsInFlight: 8))
        defer { server.stop() }
        let good = try server.client()
        let bad = try server.raw()
        bad.send((0..<20).map { call("org.example.test.Slow", ["delayMs": 2000, "tag": .string("t\($0)")]) }.joined())
        #expect(bad.isClosedByServer())
        expectStillServed(good)
    }

    @Test("answers pipelined calls up to the in-flight cap")
    func callsInFlightAllowed() throws {
        let server = try TestServer(limits: .init(maxCallsInFlight: 8))
        defer { server.stop() }
        let peer = try server.raw()
        peer.send((0..<8).map { call("org.example.test.Slow", ["delayMs": 20, "tag": .string("t\($0)")]) }.joined())
        for index in 0..<8 {
            #expect(peer.receive() == ["parameters": ["tag": .string("t\(index)")]])
        }
    }
}
