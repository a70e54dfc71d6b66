import Dispatch
import Foundation
import Testing

@testable import Varlink

@Suite("Framing and message handling")
struct FramingTests {
    @Test("answers a call whose bytes arrive one at a time")
    func byteByByte() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        for byte in Array(call("org.example.test.Echo", ["a": 1]).utf8) {
            #expect(peer.send([byte]))
        }
        #expect(peer.receive() == ["parameters": ["a": 1]])
    }

    @Test("answers every call when many arrive in one write, in order")
    func manyInOneRead() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        let count = 500
        peer.send((0..<count).map { call("org.example.test.Echo", ["n": .int(Int64($0))]) }.joined())
        for index in 0..<count {
            #expect(peer.receive() == ["parameters": ["n": .int(Int64(index))]])
        }
    }

    @Test("keeps a NUL written as a JSON escape inside the string instead of splitting the message")
    func nulInsideEscape() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(#"{"method":"org.example.test.Echo","parameters":{"s":"a\u0000b"}}"# + "\u{0}")
        #expect(peer.receive() == ["parameters": ["s": "a\u{0}b"]])
    }

    @Test("treats missing, null and empty parameters the same")
    func parameterForms() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(#"{"method":"org.example.test.Echo"}"# + "\u{0}")
        peer.send(#"{"method":"org.example.test.Echo","parameters":null}"# + "\u{0}")
        peer.send(#"{"method":"org.example.test.Echo","parameters":{}}"# + "\u{0}")
        for _ in 0..<3 { #expect(peer.receive() == ["parameters": [:]]) }
    }

    @Test("answers pipelined calls in call order even when the first handler finishes last")
    func pipeliningOrder() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(
            call("org.example.test.Slow", ["delayMs": 300, "tag": "first"])
                + call("org.example.test.Echo", ["tag": "second"])
                + call("org.example.test.Slow", ["delayMs": 10, "tag": "third"])
                + call("org.example.test.Echo", ["tag": "fourth"]))
        #expect(peer.receive() == ["parameters": ["tag": "first"]])
        #expect(peer.receive() == ["parameters": ["tag": "second"]])
        #expect(peer.receive() == ["parameters": ["tag": "third"]])
        #expect(peer.receive() == ["parameters": ["tag": "fourth"]])
    }

    @Test("streams replies with continues until a final reply, and later calls wait behind the stream")
    func streaming() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(call("org.example.test.Count", ["count": 3], more: true) + call("org.example.test.Echo", ["x": 1]))
        #expect(peer.receive() == ["continues": true, "parameters": ["index": 0]])
        #expect(peer.receive() == ["continues": true, "parameters": ["index": 1]])
        #expect(peer.receive() == ["parameters": ["index": 2]])
        #expect(peer.receive() == ["parameters": ["x": 1]])
    }

    @Test("sends nothing back for a oneway call but still runs it")
    func oneway() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(
            call("org.example.test.Notify", ["text": "hi"], oneway: true) + call("org.example.test.Echo", ["y": 2]))
        #expect(peer.receive() == ["parameters": ["y": 2]])
        #expect(server.observations.all == ["notify:hi:oneway=true"])
    }

    @Test("refuses an upgrade cleanly and keeps serving the connection")
    func upgradeRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(
            #"{"method":"org.example.test.Echo","upgrade":true}"# + "\u{0}" + call("org.example.test.Echo", ["z": 3]))
        #expect(
            peer.receive() == ["error": "org.varlink.service.InvalidParameter", "parameters": ["parameter": "upgrade"]])
        #expect(peer.receive() == ["parameters": ["z": 3]])
    }

    @Test("serves a pre-encoded reply byte for byte")
    func preEncoded() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(call("org.example.test.Cached"))
        #expect(peer.receive() == ["parameters": ["cached": true]])
    }

    @Test("answers a call repeated byte for byte like the first, and a same-length different call as itself")
    func repeatedCalls() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        let sequence = [1, 1, 1, 2, 1, 3, 3]  // one digit each: every message has the same length
        peer.send(sequence.map { call("org.example.test.Echo", ["n": .int(Int64($0))]) }.joined())
        for n in sequence { #expect(peer.receive() == ["parameters": ["n": .int(Int64(n))]]) }
        peer.send(
            call("org.example.test.Echo", ["n": 1]) + "{\"method\":\"org.example.test.Echo\",\"parameters\":[1]}\u{0}")
        #expect(peer.receive() == ["parameters": ["n": 1]])
        #expect(peer.receive()?["error"] == "org.varlink.service.InvalidParameter")
    }

    @Test("delivers many large pipelined replies whole and in order through a full socket")
    func largeRepliesThroughFullSocket() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        // 300 replies of ~20 KB (6 MB): far more than the socket buffer, so writes stop mid-reply and resume.
        let count = 300
        let filler = String(repeating: "0123456789abcdef", count: 1250)
        peer.send(
            (0..<count).map { call("org.example.test.Echo", ["n": .int(Int64($0)), "filler": .string(filler)]) }
                .joined())
        // Calls on a connection are handled in order: once the oneway Notify after them has run, every reply was
        // written or queued, and far less than all of them fits in the socket, so the server's writes backed up.
        peer.send(call("org.example.test.Notify", ["text": "after"], oneway: true))
        #expect(server.observations.notified.wait(timeout: .now() + 60) == .success)
        var probe = [UInt8](repeating: 0, count: count * filler.utf8.count)
        let waiting = probe.withUnsafeMutableBytes {
            recv(peer.fd, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        }
        #expect(waiting > 0 && waiting < probe.count, "\(waiting) bytes waiting: the replies did not back up")
        for index in 0..<count {
            let reply = peer.receive()
            #expect(reply == ["parameters": ["n": .int(Int64(index)), "filler": .string(filler)]], "reply \(index)")
        }
        peer.send(call("org.example.test.Cached"))
        #expect(peer.receive() == ["parameters": ["cached": true]])
    }

    @Test("serves a connected socketpair handed to it, with the peer's credentials")
    func socketPairAndCredentials() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (serverEnd, clientEnd) = socketPair()
        server.server.serve(connectedDescriptor: serverEnd)
        let client = VarlinkClient(connectedDescriptor: clientEnd)
        let reply = try client.callSync("org.example.test.Whoami")
        #expect(reply["pid"] == .int(Int64(getpid())))
        #expect(reply["uid"] == .int(Int64(getuid())))
        #expect(reply["gid"] == .int(Int64(getgid())))
    }

    @Test("tells a streaming handler when its client goes away")
    func closeNotification() throws {
        let server = try TestServer()
        defer { server.stop() }
        do {
            let peer = try server.raw()
            peer.send(call("org.example.test.Watch", more: true))
            #expect(peer.receive() == ["continues": true, "parameters": ["tick": 0]])
        }
        #expect(server.observations.watchClosed.wait(timeout: .now() + 10) == .success)
    }
}

@Suite("Half-closed connections")
struct HalfCloseTests {
    @Test("still answers a client that shut down its sending side after its calls")
    func halfClose() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(
            call("org.example.test.Slow", ["delayMs": 50, "tag": "after-eof"]) + call("org.example.test.Echo", ["e": 1])
        )
        shutdown(peer.fd, Int32(SHUT_WR))
        #expect(peer.receive() == ["parameters": ["tag": "after-eof"]])
        #expect(peer.receive() == ["parameters": ["e": 1]])
        #expect(peer.isClosedByServer())
    }
}
