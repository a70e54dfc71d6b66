import CSystem
import Foundation
import Testing

@testable import Varlink

@Suite("Listening sockets, activation and shutdown")
struct ServerSocketTests {
    @Test("creates the socket's directory and sets the socket's mode")
    func directoryAndMode() throws {
        let server = try TestServer()
        defer { server.stop() }
        let attributes = try FileManager.default.attributesOfItem(atPath: server.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(attributes[.type] as? FileAttributeType == .typeSocket)
    }

    @Test("makes the socket file with exactly the asked mode, whatever the umask, with no chmod by path after bind")
    func modeWithoutChmod() throws {
        let directory = "/tmp/varlink-tests-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The test process's umask (022 or 077) would strip group and other bits from a plain bind.
        for mode: mode_t in [0o666, 0o660, 0o600] {
            let path = directory + "/mode-\(String(mode, radix: 8)).sock"
            let fd = csys_unix_listen_mode(path, 1, UInt32(mode))
            try #require(fd >= 0)
            _ = csys_close(fd)
            var info = stat()
            try #require(lstat(path, &info) == 0)
            #expect(info.st_mode & 0o7777 == mode, "socket made \(String(info.st_mode & 0o7777, radix: 8))")
            #expect(info.st_mode & S_IFMT == S_IFSOCK)
        }
    }

    @Test("replaces a stale socket file nobody listens on")
    func staleSocketReplaced() throws {
        let directory = "/tmp/varlink-tests-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/stale.sock"
        let stale = csys_unix_listen(path, 1)
        #expect(stale >= 0)
        _ = csys_close(stale)
        #expect(FileManager.default.fileExists(atPath: path))
        let server = try VarlinkServer(service: try TestService.make(Observations()))
        try server.bind(path: path)
        try server.start()
        defer { server.shutdown(gracePeriod: .milliseconds(100)) }
        expectStillServed(try VarlinkClient(path: path))
    }

    @Test("never takes over a socket another server is serving")
    func liveSocketKept() throws {
        let first = try TestServer()
        defer { first.stop() }
        let second = try VarlinkServer(service: try TestService.make(Observations()))
        let error = #expect(throws: VarlinkError.self) { try second.bind(path: first.path) }
        #expect(error?.code == .bindFailed)
        expectStillServed(try first.client())
    }

    @Test("refuses to replace a file that is not a socket")
    func regularFileKept() throws {
        let directory = "/tmp/varlink-tests-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/file"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
        let server = try VarlinkServer(service: try TestService.make(Observations()))
        let error = #expect(throws: VarlinkError.self) { try server.bind(path: path) }
        #expect(error?.code == .bindFailed)
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }

    @Test("serves an already-listening descriptor, as socket activation passes it")
    func adoptListeningDescriptor() throws {
        let directory = "/tmp/varlink-tests-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/activated.sock"
        let fd = csys_unix_listen(path, 16)
        #expect(fd >= 0)
        let server = try VarlinkServer(service: try TestService.make(Observations()))
        try server.adopt(listeningDescriptor: fd)
        try server.start()
        defer { server.shutdown(gracePeriod: .milliseconds(100)) }
        expectStillServed(try VarlinkClient(path: path))
    }

    @Test("refuses a descriptor that is not a listening socket")
    func adoptRejectsNonListening() throws {
        let (one, two) = socketPair()
        defer {
            _ = csys_close(one)
            _ = csys_close(two)
        }
        let server = try VarlinkServer(service: try TestService.make(Observations()))
        let error = #expect(throws: VarlinkError.self) { try server.adopt(listeningDescriptor: one) }
        #expect(error?.code == .bindFailed)
    }

    @Test("finishes a call in flight during shutdown, then stops accepting and removes the socket")
    func gracefulShutdown() throws {
        // The grace period is on a clock that never moves: however slow the machine, it cannot end before the call.
        let server = try TestServer(clock: ManualServerClock().serverClock)
        let client = try server.client()
        // The call runs on a thread of its own: blocking a Swift concurrency thread on the semaphore below
        // could starve the pool on a 2-core machine, so the call would never start before the shutdown.
        let reply = Locked<Result<JSONValue, VarlinkError>?>(nil)
        let replied = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { () throws(VarlinkError) -> JSONValue in
                try client.callSync("org.example.test.Slow", ["delayMs": 300, "tag": "finished"])
            }
            reply.set(result)
            replied.signal()
        }
        #expect(server.observations.slowStarted.wait(timeout: .now() + 10) == .success)
        server.stop(gracePeriod: .seconds(1))
        #expect(replied.wait(timeout: .now() + 10) == .success)
        #expect(try reply.get()?.get() == ["tag": "finished"])
        #expect(!FileManager.default.fileExists(atPath: server.path))
        #expect(throws: VarlinkError.self) { try VarlinkClient(path: server.path) }
    }

    @Test("cuts streams still open at the shutdown deadline and tells their handlers")
    func shutdownCutsStreams() throws {
        let server = try TestServer()
        let peer = try server.raw()
        peer.send(call("org.example.test.Watch", more: true))
        #expect(peer.receive() == ["continues": true, "parameters": ["tick": 0]])
        server.stop()
        #expect(server.observations.watchClosed.wait(timeout: .now() + 10) == .success)
        #expect(peer.isClosedByServer())
    }
}

@Suite("Server lifecycle rules")
struct ServerLifecycleTests {
    @Test("refuses to add a listener once the loop is running")
    func noListenerAfterStart() throws {
        let server = try TestServer()
        defer { server.stop() }
        let error = #expect(throws: VarlinkError.self) { try server.server.bind(path: server.directory + "/late.sock") }
        #expect(error?.code == .bindFailed)
        expectStillServed(try server.client())
    }
}

@Suite("Peer credentials")
struct PeerCredentialTests {
    @Test("hands handlers the connecting process's pid, uid and gid from the kernel")
    func credentialsOverListeningSocket() throws {
        let server = try TestServer()
        defer { server.stop() }
        let reply = try server.client().callSync("org.example.test.Whoami")
        #expect(reply == ["pid": .int(Int64(getpid())), "uid": .int(Int64(getuid())), "gid": .int(Int64(getgid()))])
    }
}
