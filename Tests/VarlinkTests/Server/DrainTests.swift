import CSystem
import Dispatch
import Testing

@testable import Varlink

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

@Suite("Output drain")
struct DrainTests {
    @Test(
        "runs a stream's drained callback only after a stalled reader has taken the reply, never before",
        arguments: [false, true])
    func drainedAfterWritten(fromAnotherThread: Bool) throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        // Far more than the kernel's socket buffers hold, so most of it waits in the server.
        let size = 2 << 20
        peer.send(
            call(
                "org.example.test.Flood", ["size": .int(Int64(size)), "elsewhere": .bool(fromAnotherThread)], more: true
            )
        )
        // The reader does not read: the reply cannot have been written.
        #expect(server.observations.drained.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
        // Half-way through, the rest is still unwritten.
        peer.read(atLeast: size / 2)
        #expect(server.observations.drained.wait(timeout: .now()) == .timedOut)

        let first = try #require(peer.receive())
        #expect(first["continues"] == true)
        #expect(first["parameters"]?["payload"]?.stringValue?.utf8.count == size)
        #expect(server.observations.drained.wait(timeout: .now() + 10) == .success)
        let last = try #require(peer.receive())
        #expect(last["parameters"]?["payload"] == "drained")
        #expect(last["continues"] == nil || last["continues"] == false)
    }

    @Test("counts a stream's reply held back behind an earlier unfinished call as not yet written")
    func heldBackIsNotDrained() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(
            call("org.example.test.Slow", ["delayMs": 1500, "tag": "first"])
                + call("org.example.test.Flood", ["size": 16], more: true))
        #expect(server.observations.slowStarted.wait(timeout: .now() + 10) == .success)
        // The stream's reply waits for Slow's, which is not due yet.
        #expect(server.observations.drained.wait(timeout: .now() + .milliseconds(200)) == .timedOut)

        #expect(peer.receive()?["parameters"]?["tag"] == "first")
        #expect(peer.receive()?["continues"] == true)
        #expect(server.observations.drained.wait(timeout: .now() + 10) == .success)
        #expect(peer.receive()?["parameters"]?["payload"] == "drained")
    }
}

extension RawPeer {
    /// Reads until at least `count` bytes are buffered (or the connection ends), without parsing them.
    func read(atLeast count: Int) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.count < count, csys_poll(fd, Int16(POLLIN), 10_000) > 0 {
            let received = chunk.withUnsafeMutableBytes { csys_recv(fd, $0.baseAddress, $0.count) }
            guard received > 0 else { return }
            buffer.append(contentsOf: chunk[0..<received])
        }
    }
}
