import Foundation
@preconcurrency import Glibc
import LookupReplay
import ShowcaseCore

/// One isolated world for an end-to-end test: a temp directory holding the config, overlay, cache and
/// socket; a loopback replay of `Fixtures/lookup` with faults on demand; and the daemon under test.
final class TestBed: @unchecked Sendable {
    static let fixtures = DaemonProcess.packageRoot.appendingPathComponent("Fixtures/lookup", isDirectory: true)
    /// The fixtures' developer and hosts (see Fixtures/README.md).
    static let artistId = 1_641_000_001
    static let knotbook = "com.quietharbor.Knotbook"
    static let tideLog = "com.quietharbor.TideLog"

    /// One file of `Fixtures/lookup`, byte for byte.
    static func fixtureData(_ name: String) -> Data {
        try! Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    static func storefront(_ code: String) -> Storefront { try! Storefront(parsing: code) }

    let directory: URL
    let replay: LookupReplayServer
    var daemon: DaemonProcess?
    var hosts = [TestBed.knotbook]
    var storefronts = ["us", "de"]
    var rateLimit = "600/min"
    var interval = "1h"
    var retry = "300ms"
    /// `lookup.timeout`. Long by default, so a loaded machine (CI runs the suites under sanitizers on two busy
    /// cores) never turns a slow loopback answer into a timeout; a test about timeouts sets a short one itself.
    var timeout = "10s"
    var endpoint: String
    /// `hosts[].app_id` per bundle id, for the hosts that set one.
    var appIDs: [String: Int] = [:]
    /// `hosts[].overlay` per bundle id (a path relative to the configuration), for the hosts that set one.
    var hostOverlays: [String: String] = [:]
    /// `socket.admin_uids`; omitted from the file when empty.
    var adminUIDs: [Int] = []
    /// More `socket:` keys, one `key: value` line each (e.g. `max_connections_per_uid: 4`).
    var socketLines: [String] = []
    /// More `lookup:` keys, each a `key: value` line (`artwork_hosts: [...]`).
    var lookupLines: [String] = []
    var extra = ""

    init() throws {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("showcased-test-XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { throw HarnessError("mkdtemp failed") }
        directory = URL(
            fileURLWithPath: String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            isDirectory: true)
        chmod(directory.path, 0o755)
        replay = try LookupReplayServer(fixtures: Self.fixtures)
        endpoint = replay.endpoint
    }

    deinit {
        if let daemon, daemon.process.isRunning { kill(daemon.pid, SIGKILL) }
        // Before the directory (and the daemon's log in it) goes.
        daemon?.recordSanitizerReport()
        replay.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    var socketPath: String { directory.appendingPathComponent("showcased.sock").path }
    var configURL: URL { directory.appendingPathComponent("showcase.yaml") }
    var overlayURL: URL { directory.appendingPathComponent("overlay.yaml") }
    var cacheDirectory: URL { directory.appendingPathComponent("cache", isDirectory: true) }
    var logURL: URL { directory.appendingPathComponent("showcased.log") }

    /// Writes the configuration from the current settings (and an empty overlay file if none exists).
    func writeConfig() throws {
        if !FileManager.default.fileExists(atPath: overlayURL.path) { try writeOverlay("{}\n") }
        let hostLines = hosts.map { host in
            "  - bundle_id: \(host)" + (appIDs[host].map { "\n    app_id: \($0)" } ?? "")
                + (hostOverlays[host].map { "\n    overlay: \($0)" } ?? "")
        }
        let adminList = adminUIDs.map(String.init).joined(separator: ", ")
        let adminLine =
            (adminUIDs.isEmpty ? "" : "\n  admin_uids: [\(adminList)]") + socketLines.map { "\n  \($0)" }.joined()
        let text = """
            hosts:
            \(hostLines.joined(separator: "\n"))
            storefronts: [\(storefronts.joined(separator: ", "))]
            refresh:
              interval: \(interval)
              jitter: 0%
              retry: \(retry)
            lookup:
              endpoint: \(endpoint)
              timeout: \(timeout)
              rate_limit: \(rateLimit)\(lookupLines.map { "\n  \($0)" }.joined())
            cache:
              directory: \(cacheDirectory.path)
            state:
              directory: \(directory.appendingPathComponent("state").path)
            socket:
              path: \(socketPath)
              mode: "0666"\(adminLine)
            overlay: overlay.yaml
            \(extra)
            """
        try text.write(to: configURL, atomically: true, encoding: .utf8)
    }

    func writeOverlay(_ text: String) throws {
        try text.write(to: overlayURL, atomically: true, encoding: .utf8)
    }

    /// Writes the config and starts the daemon; returns once its socket answers.
    @discardableResult
    func start(environment: [String: String] = [:]) throws -> DaemonProcess {
        try writeConfig()
        let process = try DaemonProcess(
            config: configURL, socketPath: socketPath, logFile: logURL, environment: environment)
        daemon = process
        return process
    }

    func client(receiveTimeout: Int = 15) throws -> VarlinkTestClient {
        try VarlinkTestClient(path: socketPath, receiveTimeout: receiveTimeout)
    }

    /// `Roster.Get` for `storefront` with extra parameters.
    func get(_ storefront: String, _ parameters: [String: Any] = [:]) throws -> Reply {
        var all = parameters
        all["storefront"] = storefront
        return try client().call("io.showcase.Roster.Get", all)
    }

    func status() throws -> Reply { try client().call("io.showcase.Admin.Status") }

    /// Writes the configuration from the current settings and asks the daemon to reload it (`Admin.Reload`).
    @discardableResult
    func reload() throws -> Reply {
        try writeConfig()
        return try client().call("io.showcase.Admin.Reload")
    }

    /// The entry of `storefront` in `Admin.Status`.
    func statusEntry(_ storefront: String) throws -> [String: Any]? {
        (try status()["storefronts"] as? [[String: Any]] ?? []).first { $0["code"] as? String == storefront }
    }

    /// `Admin.Refresh` (all warm storefronts when nil); returns when the refreshes have finished.
    @discardableResult
    func refresh(_ storefront: String? = nil) throws -> Reply {
        try client().call("io.showcase.Admin.Refresh", storefront.map { ["storefront": $0] } ?? [:])
    }

    /// Polls Status until every warm storefront has a roster (fresh), i.e. the background warm finished.
    func waitUntilWarm(timeout: Duration = .seconds(20)) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let storefronts = try status()["storefronts"] as? [[String: Any]] ?? []
            if !storefronts.isEmpty, storefronts.allSatisfy({ ($0["state"] as? String) == "fresh" }) { return }
            usleep(20_000)
        }
        throw HarnessError("rosters did not warm in time: \(try status()) \(daemon?.log ?? "")")
    }

    /// The fixture roster body for `storefront`, parsed, for building changed upstream content.
    func fixtureRoster(_ storefront: String) throws -> [String: Any] {
        let data = try Data(
            contentsOf: Self.fixtures.appendingPathComponent("roster-\(Self.artistId)-\(storefront).json"))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    /// Serves `body` for the roster request of `storefront` until cleared.
    func overrideRoster(_ storefront: String, _ body: [String: Any]) throws {
        replay.setOverride(
            "roster-\(Self.artistId)-\(storefront).json", contents: try JSONSerialization.data(withJSONObject: body))
    }

    /// Serves `storefront`'s fixture roster without the apps `ids` (and its `resultCount` to match) until cleared.
    func overrideRoster(_ storefront: String, without ids: [Int]) throws {
        var body = try fixtureRoster(storefront)
        let results = (body["results"] as! [[String: Any]]).filter {
            !ids.contains(($0["trackId"] as? NSNumber)?.intValue ?? 0)
        }
        body["results"] = results
        body["resultCount"] = results.count
        try overrideRoster(storefront, body)
    }

    /// Lookup requests recorded by the replay server whose target contains `fragment`.
    func requests(matching fragment: String = "") -> [RecordedRequest] {
        replay.requests.filter { fragment.isEmpty || $0.target.contains(fragment) }
    }
}
