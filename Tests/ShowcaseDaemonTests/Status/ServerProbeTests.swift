import Dispatch
import Foundation
import ShowcaseDaemon
import Testing
import Varlink

@Suite("Watchdog probe")
struct ServerProbeTests {
    @Test("the watchdog probe answers only while the Varlink loop serves calls")
    func probeSeesAStuckLoop() throws {
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        var interface = try VarlinkInterface(idl: "interface org.example.stuck\n\nmethod Block() -> ()\n")
        try interface.handle("Block") { _, responder in
            // Handlers run on the loop thread: this one holds it, as a hung handler would.
            entered.signal()
            release.wait()
            responder.reply()
        }
        var service = VarlinkService(vendor: "test", product: "probe", version: "1", url: "")
        try service.add(interface)
        let server = try VarlinkServer(service: service)
        try server.start()
        defer { server.shutdown(gracePeriod: .milliseconds(100)) }
        // Two probes: "answering" is asserted with a generous timeout, so a loaded machine cannot make a
        // healthy loop look stuck; "stuck" with a short one, which cannot flake because the loop is held.
        let patient = ServerProbe(server: server, timeout: .seconds(20))
        let impatient = ServerProbe(server: server, timeout: .milliseconds(300))
        #expect(patient.isAnswering())

        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        server.serve(connectedDescriptor: pair[0])
        let blocker = VarlinkClient(connectedDescriptor: pair[1], timeout: .seconds(10))
        defer { blocker.close() }
        try blocker.sendOneway("org.example.stuck.Block")
        #expect(entered.wait(timeout: .now() + 5) == .success)
        #expect(!impatient.isAnswering())

        release.signal()
        #expect(patient.isAnswering())
    }
}
