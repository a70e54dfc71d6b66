import Foundation
import Testing
import Varlink

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

    @Test("a configuration named with one character, read from its own directory, resolves its relative paths")
    func oneCharacterName() throws {
        // Foundation's deletingLastPathComponent traps on a one-character relative name: check-config died of
        // SIGILL (status 132) here before ConfigLoader resolved paths with PathText.
        let directory = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("hosts:\n  - bundle_id: com.quietharbor.NoteJar\noverlay: o.yaml\n".utf8)
            .write(to: directory.appendingPathComponent("c"))
        try Data("order: []\n".utf8).write(to: directory.appendingPathComponent("o.yaml"))
        let result = try Ctl.run(["check-config", "c"], prefix: ["/usr/bin/env", "-C", directory.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix("c: configuration is valid"), "stdout: \(result.stdout)")
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

    @Test("check-config names file:line:column of each rejected bundle_id and language, and exits 78")
    func rejectedIdentifiers() throws {
        let hosts = Self.fixture("invalid/bad-bundle-ids.yaml")
        let result = try Ctl.run(["check-config", hosts])
        #expect(result.status == 78)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 7, "stderr: \(result.stderr)")
        #expect(lines.first?.hasPrefix("\(hosts):3:16: 'index.json' is a name the export tree reserves") == true)
        #expect(lines.last?.hasPrefix("\(hosts):9:16: expected a bundle identifier") == true)
        let languages = Self.fixture("invalid/bad-languages.yaml")
        let rejected = try Ctl.run(["check-config", languages])
        #expect(rejected.status == 78)
        #expect(
            rejected.stderr.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" } == [
                "\(languages):5:60:", "\(languages):6:32:", "\(languages):7:32:",
            ])
    }

    @Test("check-config escapes control characters the file spells in a quoted value; --json keeps them")
    func escapesQuotedValues() throws {
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("showcase.yaml")
        try "hosts:\n  - bundle_id: \"com.\\e[2J\\u2028x\"\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try Ctl.run(["check-config", config.path])
        #expect(result.status == 78)
        #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{2028}" })
        #expect(result.stderr.hasPrefix("\(config.path):2:16: "))
        #expect(result.stderr.contains("'com.\\x1b[2J\\u2028x'"), "stderr: \(result.stderr)")
        let json = try Ctl.run(["--json", "check-config", config.path])
        let document = try JSONValue(parsing: json.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(
            document["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("com.\u{1B}[2J\u{2028}x") == true)
    }

    @Test("check-config --json prints one document: valid with a summary, or each error with file, line and column")
    func jsonOutput() throws {
        let valid = Self.fixture("valid/full.yaml")
        let good = try Ctl.run(["--json", "check-config", valid])
        #expect(good.status == 0, "stderr: \(good.stderr)")
        let accepted = try JSONValue(parsing: good.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(accepted["valid"] == .bool(true))
        #expect(accepted["file"] == .string(valid))
        #expect(accepted["summary"]?.stringValue?.isEmpty == false)

        let invalid = Self.fixture("invalid/bad-overlay.yaml")
        let bad = try Ctl.run(["check-config", "--json", invalid])
        #expect(bad.status == 78)
        let rejected = try JSONValue(parsing: bad.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(rejected["valid"] == .bool(false))
        guard case .array(let errors)? = rejected["errors"] else {
            Issue.record("no errors array: \(bad.stdout)")
            return
        }
        // The same problems, in the same order, as the file:line:column lines on stderr.
        let lines = bad.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == lines.count)
        for (error, line) in zip(errors, lines) {
            let file = try #require(error["file"]?.stringValue)
            let lineNumber = try #require(error["line"]?.intValue)
            let column = try #require(error["column"]?.intValue)
            let message = try #require(error["message"]?.stringValue)
            #expect(line == "\(file):\(lineNumber):\(column): \(message)")
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
