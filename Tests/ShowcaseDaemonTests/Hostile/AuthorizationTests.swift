import Foundation
import Testing

@Suite("Authorization", .serialized)
struct AuthorizationTests {
    /// Calls `method` as uid/gid 65534 (nobody) with an independent client (Python's socket module).
    func callAsNobody(_ socket: String, _ method: String, _ parameters: String = "{}") throws -> String {
        let script = """
            import socket, sys, json
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            s.sendall(json.dumps({"method": sys.argv[2], "parameters": json.loads(sys.argv[3])}).encode() + b"\\0")
            buf = b""
            while b"\\0" not in buf:
                chunk = s.recv(65536)
                if not chunk: break
                buf += chunk
            print(buf.split(b"\\0")[0].decode())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, socket, method,
            parameters,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    @Test("a non-admin uid is refused Admin methods but served Roster")
    func nonAdminRefusedAdmin() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let generation = try bed.status().int("configGeneration")
        for method in ["io.showcase.Admin.Status", "io.showcase.Admin.Reload", "io.showcase.Admin.Refresh"] {
            let output = try callAsNobody(bed.socketPath, method)
            #expect(output.contains("org.varlink.service.PermissionDenied"), "\(method): \(output)")
        }
        let roster = try callAsNobody(bed.socketPath, "io.showcase.Roster.Get", #"{"storefront":"de"}"#)
        #expect(roster.contains("\"state\":\"fresh\""), "\(roster)")
        #expect(try bed.status().int("configGeneration") == generation)
    }

    @Test("a uid listed in socket.admin_uids may call Admin methods")
    func adminUIDAllowed() throws {
        let bed = try TestBed()
        try bed.writeConfig()
        var text = try String(contentsOf: bed.configURL, encoding: .utf8)
        text = text.replacingOccurrences(of: "  mode: \"0666\"\n", with: "  mode: \"0666\"\n  admin_uids: [65534]\n")
        try text.write(to: bed.configURL, atomically: true, encoding: .utf8)
        bed.daemon = try DaemonProcess(config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL)
        let output = try callAsNobody(bed.socketPath, "io.showcase.Admin.Status")
        #expect(output.contains("\"configGeneration\":1"), "\(output)")
    }
}
