import Foundation
@preconcurrency import Glibc
import Testing

extension HostileClientTests {
    /// Processes running as uid 65534 (nobody) that hold `count` connections open until `release()`, then try one
    /// more call on a fresh connection and print its answer.
    final class NobodyConnections {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()

        init(socket: String, count: Int) throws {
            let script = """
                import socket, sys, json
                held = []
                for _ in range(int(sys.argv[2])):
                    s = socket.socket(socket.AF_UNIX)
                    s.connect(sys.argv[1])
                    held.append(s)
                print("held", flush=True)
                s = socket.socket(socket.AF_UNIX)
                s.connect(sys.argv[1])
                try:
                    s.sendall(json.dumps({"method": "io.showcase.Roster.Get",
                                          "parameters": {"storefront": "de"}}).encode() + b"\\0")
                except OSError:
                    pass
                buf = b""
                while b"\\0" not in buf:
                    chunk = s.recv(65536)
                    if not chunk: break
                    buf += chunk
                print(buf.split(b"\\0")[0].decode() or "closed", flush=True)
                sys.stdin.read()
                """
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, socket,
                String(count),
            ]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        /// The next line the script printed.
        func line() -> String {
            var bytes: [UInt8] = []
            while true {
                let data = output.fileHandleForReading.readData(ofLength: 1)
                guard let byte = data.first, byte != UInt8(ascii: "\n") else { break }
                bytes.append(byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Closes every connection the script holds.
        func release() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    }

    /// `showcasectl` run as uid 65534 (nobody): its exit status and stderr.
    static func showcasectlAsNobody(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        let tool = DaemonProcess.showcasectl.path
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", tool] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let text = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }

    @Test("one uid cannot take every connection: it is told busy, others are served, root still reaches Admin")
    func oneUIDCannotTakeEverySlot() throws {
        let bed = try TestBed()
        bed.socketLines = ["max_connections: 8", "max_connections_per_uid: 4"]
        try bed.start()
        try bed.waitUntilWarm()

        // nobody holds its 4 connections; its fifth is refused with a reason, not dropped silently.
        let nobody = try NobodyConnections(socket: bed.socketPath, count: 4)
        #expect(nobody.line() == "held")
        let refused = nobody.line()
        #expect(refused.contains("org.varlink.server.ServiceBusy"), "nobody's fifth connection got \(refused)")
        #expect(refused.contains("uid 65534"), "\(refused)")
        let ctl = try Self.showcasectlAsNobody(["--socket", bed.socketPath, "roster", "--storefront", "de"])
        #expect(ctl.status == 69, "showcasectl exited \(ctl.status): \(ctl.stderr)")
        #expect(ctl.stderr.contains("showcased is busy (too many connections"), "\(ctl.stderr)")
        #expect(!ctl.stderr.contains("stopped or restarted"), "\(ctl.stderr)")

        // Another uid (root here) is served, and takes the remaining 4 of 8 ordinary slots.
        var held = [try bed.client()]
        #expect(try held[0].call("io.showcase.Roster.Get", ["storefront": "de"]).error == nil)
        for _ in 0..<3 { held.append(try bed.client()) }
        // Every ordinary slot is taken: root still reaches Admin through the reserve, but only Admin.
        let reserve = try bed.client()
        #expect(try reserve.call("io.showcase.Admin.Status")["configGeneration"] != nil)
        let busy = try reserve.call("io.showcase.Roster.Get", ["storefront": "de"])
        #expect(busy.error == "org.varlink.server.ServiceBusy")

        // Once nobody lets go, its slots serve again.
        nobody.release()
        held.removeAll()
        var served = false
        for _ in 0..<100 where !served {
            served = try bed.get("de").error == nil
            if !served { usleep(50_000) }
        }
        #expect(served)
        #expect(bed.daemon!.process.isRunning)
    }

    @Test("many clients each sending almost a whole message and no end hold a bounded amount of memory in all")
    func halfSentMessagesAreBoundedAcrossConnections() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let daemon = try #require(bed.daemon)
        let before = try daemon.residentBytes()
        // 300 clients, each ~1 MiB of a message that never ends (just under the per-message limit).
        let body =
            Array(#"{"method":"io.showcase.Roster.Get","parameters":{"storefront":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "a"), count: (1 << 20) - 200)
        var clients: [VarlinkTestClient] = []
        var cut = 0
        for _ in 0..<300 {
            let client = try bed.client()
            if !client.send(body) { cut += 1 }
            clients.append(client)
        }
        // The daemon has read what it kept: a full round trip on a new connection.
        #expect(try bed.get("de").error == nil)
        let after = try daemon.residentBytes()
        let grown = after - before
        #expect(grown < 128 << 20, "RSS grew by \(grown >> 20) MiB (\(before >> 20) → \(after >> 20) MiB), \(cut) cut")
        #expect(cut > 0, "no client was cut off")
        #expect(daemon.process.isRunning)
    }
}
