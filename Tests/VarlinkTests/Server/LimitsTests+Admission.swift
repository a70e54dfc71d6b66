import CSystem
import Foundation
import Testing

@testable import Varlink

extension LimitsTests {
    @Test("tells a client beyond its uid's cap that the service is busy, and the client's call says so")
    func perUIDCap() throws {
        let server = try TestServer(limits: .init(maxConnectionsPerUID: 2))
        defer { server.stop() }
        let held = try (0..<2).map { _ in try server.client() }
        for client in held { expectStillServed(client) }
        let refused = try server.raw()
        let message = refused.receive()
        #expect(message?["error"]?.stringValue == VarlinkError.serviceBusyName)
        #expect(message?["parameters"]?["reason"]?.stringValue?.contains("from uid \(getuid())") == true)
        #expect(refused.isClosedByServer())
        // The client library reports the refusal as the error it is, even when its call could not be sent.
        let late = try server.client()
        do {
            _ = try late.callSync("org.example.test.Echo", [:])
            Issue.record("a call beyond the per-uid cap was answered")
        } catch {
            #expect(error.name == VarlinkError.serviceBusyName, "\(error)")
        }
        #expect(server.server.connectionCount == 2)
    }

    @Test("admits a privileged peer beyond the caps into a reserve that serves only the reserve's interfaces")
    func privilegedReserve() throws {
        let server = try TestServer(
            limits: .init(
                maxConnections: 2, reservedConnections: 1, reserveInterfaces: ["org.varlink.service"],
                isPrivileged: { $0.uid == getuid() }))
        defer { server.stop() }
        let held = try (0..<2).map { _ in try server.client() }
        let reserve = try server.client()
        #expect(try reserve.callSync("org.varlink.service.GetInfo")["product"] == "Tests")
        do {
            _ = try reserve.callSync("org.example.test.Echo", [:])
            Issue.record("the reserve served an interface outside reserveInterfaces")
        } catch {
            #expect(error.name == VarlinkError.serviceBusyName, "\(error)")
        }
        // The reserve is full too: the next privileged peer is refused.
        let refused = try server.raw()
        #expect(refused.receive()?["error"]?.stringValue == VarlinkError.serviceBusyName)
        for client in held { expectStillServed(client) }
    }

    @Test("closes connections once half-sent messages across all of them exceed the input budget")
    func globalInputBudget() throws {
        let server = try TestServer(limits: .init(maxBufferedInputBytes: 4 << 20))
        defer { server.stop() }
        let good = try server.client()
        let start = Array(#"{"method":"org.example.test.Echo","parameters":{"s":""#.utf8)
        let part = start + [UInt8](repeating: UInt8(ascii: "c"), count: 900 << 10)
        var peers: [RawPeer] = []
        for _ in 0..<10 {
            let peer = try server.raw()
            peer.send(part)
            peers.append(peer)
        }
        expectStillServed(good)
        // 10 × 900 KiB does not fit in 4 MiB: some of the senders were cut, none of them is a message too long.
        let closed = peers.filter { $0.isClosedByServer(within: 2) }.count
        #expect(closed >= 5, "only \(closed) of 10 closed")
        #expect(closed < 10, "every sender was closed, even those within the budget")
        expectStillServed(good)
    }
}
