import Foundation
import Testing

import Varlink

@Suite("Calls counted per method")
struct CallCountTests {
    @Test("every dispatched call counts for its method, errors included; unknown names never become a method")
    func countsByMethod() throws {
        let service = try TestService.make(Observations())
        let counts = service.callCounts
        let directory = "/tmp/varlink-tests-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try VarlinkServer(service: service)
        try server.bind(path: directory + "/count.sock")
        try server.start()
        defer { server.shutdown(gracePeriod: .milliseconds(100)) }

        let before = counts.snapshot()
        #expect(before["org.example.test.Echo"] == 0, "served methods are listed before any call: \(before)")
        #expect(before["org.varlink.service.GetInfo"] == 0)
        let client = try VarlinkClient(path: directory + "/count.sock")
        for _ in 0..<3 { _ = try client.callSync("org.example.test.Echo", ["value": ["a": 1]]) }
        _ = try client.callSync("org.varlink.service.GetInfo")
        #expect(throws: VarlinkError.self) { try client.callSync("org.example.test.Denied") }
        #expect(throws: VarlinkError.self) { try client.callSync("org.example.test.NoSuchMethod") }
        #expect(throws: VarlinkError.self) { try client.callSync("org.example.made.Up") }

        let after = counts.snapshot()
        #expect(after["org.example.test.Echo"] == 3)
        #expect(after["org.varlink.service.GetInfo"] == 1)
        #expect(after["org.example.test.Denied"] == 1, "a refused call is still a call of that method")
        #expect(after["org.example.test.NoSuchMethod"] == nil && after["org.example.made.Up"] == nil)
        #expect(Set(after.keys) == Set(before.keys), "no call adds a name: \(after.keys.sorted())")
    }
}
