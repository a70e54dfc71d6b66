import Testing

@testable import ShowcaseConfig

@Suite("Socket settings")
struct SocketSettingsTests {
    let hosts = "hosts:\n  - bundle_id: com.example.NoteJar\n"

    @Test("caps 4096 connections in all and 1024 per uid unless told otherwise")
    func connectionDefaults() throws {
        let configuration = try load(hosts)
        #expect(configuration.socket.maxConnections == 4096)
        #expect(configuration.socket.maxConnectionsPerUID == 1024)
        let tuned = try load(hosts + "socket:\n  max_connections: 64\n  max_connections_per_uid: 8\n")
        #expect(tuned.socket.maxConnections == 64)
        #expect(tuned.socket.maxConnectionsPerUID == 8)
    }

    @Test("refuses a per-uid cap above the global one, naming both keys")
    func perUIDAboveGlobal() throws {
        let error = try onlyError(hosts + "socket:\n  max_connections: 100\n  max_connections_per_uid: 200\n")
        #expect(error?.line == 5)
        #expect(error?.message.contains("'socket.max_connections_per_uid' (200) must not exceed") == true)
        // The default per-uid cap (1024) above a small global one is the same mistake, reported at the global key.
        let implicit = try onlyError(hosts + "socket:\n  max_connections: 100\n")
        #expect(implicit?.line == 4)
    }

    @Test("refuses a connection cap that is not a positive number")
    func badCounts() throws {
        for value in ["0", "-3", "lots", "\"12\"", "99999999999999999999"] {
            let error = try onlyError(hosts + "socket:\n  max_connections: \(value)\n")
            #expect(
                error?.message.hasPrefix("expected a number of connections from 1 to") == true, "\(value): \(error!)")
        }
    }
}
