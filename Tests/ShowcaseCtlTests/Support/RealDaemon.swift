import BuiltProducts
import Foundation
import Testing
import Varlink

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The real `showcased` of the build these tests belong to (see ``BuiltProducts``) in a scratch directory, fetching from the real
/// `lookup-replay` serving `Fixtures/lookup` on loopback: the world `showcasectl` is meant for,
/// without the internet. Both run as separate processes, as they do in the demo. A sanitizer report in either's
/// log fails the test.
final class RealDaemon: @unchecked Sendable {
    static let binary = BuiltProducts.path("showcased")
    static let replayBinary = BuiltProducts.path("lookup-replay")
    static let fixtures = Ctl.packageRoot.appendingPathComponent("Fixtures/lookup", isDirectory: true)
    /// The fixtures' host app (see Fixtures/README.md).
    static let host = "com.quietharbor.Knotbook"

    /// Throws a failure saying what is wrong unless both the daemon and the replay server are built and
    /// answer `--help` with their usage. A missing or broken binary must fail the end-to-end tests, never
    /// skip them: a skipped suite looks green.
    static func requireBuilt() throws {
        func check(_ binary: String, _ usage: String) throws {
            guard FileManager.default.isExecutableFile(atPath: binary) else {
                throw StaleSocket.Failure(description: "no executable at \(binary): run swift build (make test does)")
            }
            let result = try Tool.capture(binary, ["--help"], environment: ["PATH": "/usr/bin:/bin"])
            guard result.status == 0, result.stdout.contains(usage) else {
                throw StaleSocket.Failure(
                    description: "\(binary) --help exited \(result.status) without '\(usage)': "
                        + "stdout \(result.stdout.debugDescription), stderr \(result.stderr.debugDescription)")
            }
        }
        try check(binary, "usage: showcased")
        try check(replayBinary, "usage: lookup-replay")
    }

    let directory: URL
    private let process = Process()
    private let replayProcess = Process()
    /// The replay server's port on 127.0.0.1.
    private(set) var replayPort = 0

    var socketPath: String { directory.appendingPathComponent("showcased.sock").path }
    var overlayURL: URL { directory.appendingPathComponent("overlay.yaml") }
    var logURL: URL { directory.appendingPathComponent("showcased.log") }
    var replayLogURL: URL { directory.appendingPathComponent("lookup-replay.log") }

    /// Where the daemon exports when started with `exporting: true`.
    var exportDirectory: URL { directory.appendingPathComponent("export", isDirectory: true) }

    /// Starts the replay server and the daemon (with an `export:` section when `exporting`, and `lookup.timeout`
    /// `timeout`), and returns once the socket accepts connections.
    init(
        storefronts: [String] = ["us", "de"], overlay: String = "{}\n", exporting: Bool = false, timeout: String = "1s"
    ) throws {
        try Self.requireBuilt()
        directory = try Ctl.temporaryDirectory()
        chmod(directory.path, 0o755)
        replayPort = try startReplay()
        try overlay.write(to: overlayURL, atomically: true, encoding: .utf8)
        let config = """
            hosts:
              - bundle_id: \(Self.host)
            storefronts: [\(storefronts.joined(separator: ", "))]
            refresh:
              interval: 1h
              jitter: 0%
              retry: 300ms
            lookup:
              endpoint: http://127.0.0.1:\(replayPort)/lookup
              timeout: \(timeout)
              rate_limit: 600/min
            cache:
              directory: \(directory.appendingPathComponent("cache").path)
            state:
              directory: \(directory.appendingPathComponent("state").path)
            socket:
              path: \(socketPath)
              mode: "0666"
            overlay: overlay.yaml
            """ + (exporting ? "\nexport:\n  directory: \(directory.path)/export\n" : "")
        let configURL = directory.appendingPathComponent("showcase.yaml")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--config", configURL.path]
        process.environment = BuiltProducts.withSanitizerSettings(["PATH": "/usr/bin:/bin", "HOME": directory.path])
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if (try? VarlinkClient(path: socketPath, timeout: .seconds(2))) != nil { return }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        stop()
        throw StaleSocket.Failure(description: "showcased did not start: \(log)")
    }

    /// Everything the daemon logged so far, for failure messages.
    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Runs `showcasectl --socket SOCKET ARGUMENTS` against this daemon.
    func run(_ arguments: [String], prefix: [String] = []) throws -> CtlResult {
        try Ctl.run(
            ["--socket", socketPath] + arguments, environment: Ctl.baseEnvironment(runtimeDirectory: directory.path),
            prefix: prefix)
    }

    /// Calls the daemon directly, for comparing showcasectl's output with the method's reply.
    func call(_ method: String, _ parameters: JSONValue = .emptyObject) throws -> JSONValue {
        try VarlinkClient(path: socketPath).callSync(method, parameters)
    }

    /// Ends the daemon with SIGTERM (SIGKILL if it does not go) and removes everything.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        if replayProcess.isRunning {
            kill(replayProcess.processIdentifier, SIGKILL)
            replayProcess.waitUntilExit()
        }
        for (name, url) in [("showcased", logURL), ("lookup-replay", replayLogURL)] {
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if let report = BuiltProducts.sanitizerReport(in: text) { Issue.record("\(name): \(report)") }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts `lookup-replay --fixtures Fixtures/lookup` on a free port and returns the port (the
    /// first line it prints).
    private func startReplay() throws -> Int {
        let output = Pipe()
        replayProcess.executableURL = URL(fileURLWithPath: Self.replayBinary)
        replayProcess.arguments = ["--fixtures", Self.fixtures.path]
        replayProcess.standardOutput = output
        _ = FileManager.default.createFile(atPath: replayLogURL.path, contents: nil)
        replayProcess.standardError = try FileHandle(forWritingTo: replayLogURL)
        try replayProcess.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = Int(text.split(separator: "\n").first ?? "") else {
            throw StaleSocket.Failure(description: "lookup-replay did not print its port (got '\(text)')")
        }
        return port
    }

    /// Asks the replay server to misbehave (`/_replay/fault`): `["delayMs": "3000"]`, `["body":
    /// "malformed.html"]`, `["status": "500"]`, for requests whose target contains `matching`.
    func injectFault(_ fault: [String: String], matching: String) throws {
        try control("fault", fault.merging(["match": matching]) { $1 })
    }

    /// Answers requests for fixture `name` (`roster-1641000001-us.json`) with the file at `path` from now on
    /// (`/_replay/override`), until the replay server stops.
    func override(_ name: String, withFile path: String) throws {
        try control("override", ["name": name, "file": path])
    }

    /// Removes every armed fault.
    func clearFaults() throws {
        try control("faults/clear", [:])
    }

    private func control(_ endpoint: String, _ query: [String: String]) throws {
        // '=' inside a value (match=country=jp) must be escaped, which URLQueryItem leaves alone.
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "=&+")
        let encoded = query.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.value)"
        }
        let url = URL(string: "http://127.0.0.1:\(replayPort)/_replay/\(endpoint)?\(encoded.joined(separator: "&"))")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let done = DispatchSemaphore(value: 0)
        let outcome = ControlOutcome()
        URLSession.shared.dataTask(with: request) { data, response, error in
            outcome.set(
                status: (response as? HTTPURLResponse)?.statusCode ?? 0,
                body: data.map { String(decoding: $0, as: UTF8.self) } ?? error.map { "\($0)" } ?? "")
            done.signal()
        }.resume()
        done.wait()
        guard outcome.status == 200 else {
            throw StaleSocket.Failure(
                description: "lookup-replay refused \(endpoint): \(outcome.status) \(outcome.body)")
        }
    }
}

/// The answer of one replay control request, handed from URLSession's queue to the test.
final class ControlOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var storedStatus = 0
    private var storedBody = ""

    func set(status: Int, body: String) {
        lock.lock()
        defer { lock.unlock() }
        storedStatus = status
        storedBody = body
    }

    var status: Int {
        lock.lock()
        defer { lock.unlock() }
        return storedStatus
    }

    var body: String {
        lock.lock()
        defer { lock.unlock() }
        return storedBody
    }
}
