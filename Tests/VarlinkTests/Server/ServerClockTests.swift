import Dispatch
import Testing

@testable import Varlink

/// The server's deadlines are instants on the clock it was given: they pass when that clock passes them, and real
/// time alone never does it.
@Suite("Server deadlines on the server's clock")
struct ServerClockTests {
    @Test("a shutdown waits for a stream until the clock passes the grace period, then cuts it and stops")
    func shutdownDeadline() async throws {
        let clock = ManualServerClock()
        let server = try TestServer(clock: clock.serverClock)
        defer { server.stop() }
        let watcher = try server.raw()
        watcher.send(call("org.example.test.Watch", more: true))
        #expect(watcher.receive() == ["continues": true, "parameters": ["tick": 0]])
        let quiet = try server.raw()
        expectAnswered(quiet)

        // An hour's grace: the quiet connection is closed at once, the stream is let run.
        server.server.beginShutdown(gracePeriod: .seconds(3600))
        #expect(quiet.isClosedByServer(), "the shutdown did not close a connection with nothing in flight")
        #expect(watcher.isOpenNow, "the stream was cut before the grace period ended")
        #expect(!server.server.loop.completion.isFinished)

        clock.advance(by: .seconds(3600))
        #expect(server.observations.watchClosed.wait(timeout: .now() + 10) == .success)
        await server.server.waitUntilStopped()
        #expect(server.server.loop.completion.isFinished)
        #expect(watcher.isClosedByServer())
    }

    @Test("every thread blocked on a server's stop and every task awaiting it is released, as are later ones")
    func completionReleasesEveryone() async throws {
        let server = try TestServer()
        let blocked = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            DispatchQueue.global().async {
                server.server.wait()
                blocked.signal()
            }
        }
        let awaiting = (0..<3).map { _ in Task { await server.server.waitUntilStopped() } }
        server.stop()
        for _ in 0..<3 { #expect(blocked.wait(timeout: .now() + 10) == .success) }
        for task in awaiting { await task.value }
        server.server.wait()
        await server.server.waitUntilStopped()
    }

    @Test("a server shut down before it started does not leave its waiters blocked")
    func neverStarted() async throws {
        let server = try VarlinkServer(service: VarlinkService(vendor: "v", product: "p", version: "1", url: ""))
        server.shutdown()
        server.wait()
        await server.waitUntilStopped()
        #expect(server.loop.completion.isFinished)
    }
}
