import Foundation
import Testing

/// `check-config` and `--config` from the command line: the configuration module decides what is
/// valid; these check that showcasectl routes to it and keeps the contract's exit statuses.
@Suite("showcasectl check-config and --config")
struct ConfigOptionTests {
    static func fixture(_ name: String) -> String {
        Ctl.packageRoot.appendingPathComponent("Fixtures/config/\(name)").path
    }

    @Test("check-config accepts a valid file by argument or --config and exits 0")
    func validConfig() throws {
        for arguments in [
            ["check-config", Self.fixture("valid/full.yaml")],
            ["--config", Self.fixture("valid/full.yaml"), "check-config"],
        ] {
            let result = try Ctl.run(arguments)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.contains("valid"))
        }
    }

    @Test("check-config prints each error as file:line:column: message and exits 78")
    func invalidConfig() throws {
        let path = Self.fixture("invalid/bad-overlay.yaml")
        let result = try Ctl.run(["check-config", path])
        #expect(result.status == 78)
        let lines = result.stderr.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(
                line.range(of: #"^[^:]+:\d+:\d+: .+"#, options: .regularExpression) != nil,
                "not file:line:column: \(line)")
        }
    }

    @Test("--config names the socket to use when --socket is not given")
    func socketFromConfig() throws {
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("from-config.sock").path
        let config = dir.appendingPathComponent("showcase.yaml")
        try "hosts:\n  - bundle_id: com.example.NoteJar\nsocket:\n  path: \(socket)\n".write(
            to: config, atomically: true, encoding: .utf8)
        let result = try Ctl.run(["--config", config.path, "status"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("no socket at \(socket)"))
    }

    @Test("an invalid --config exits 78 naming file, line and column, before any connection")
    func invalidConfigOption() throws {
        let path = Self.fixture("invalid/bad-overlay.yaml")
        let result = try Ctl.run(["--config", path, "roster", "--storefront", "de"])
        #expect(result.status == 78)
        #expect(result.stderr.range(of: #":\d+:\d+: "#, options: .regularExpression) != nil)
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
