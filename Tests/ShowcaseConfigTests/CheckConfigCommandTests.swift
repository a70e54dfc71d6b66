import Foundation
import Testing

/// Runs `showcasectl` of this build (the Makefile builds before testing) and captures its output.
private func checkConfig(_ arguments: [String], environment: [String: String] = [:]) throws -> (
    status: Int32, stdout: String, stderr: String
) {
    let binary = showcasectl
    try #require(
        FileManager.default.isExecutableFile(atPath: binary.path),
        "\(binary.path) is missing: run `swift build` (or `make test`) before the tests")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["check-config"] + arguments
    process.environment =
        environment.isEmpty ? ProcessInfo.processInfo.environment : showcasectlEnvironment(environment)
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

@Suite("showcasectl check-config")
struct CheckConfigCommandTests {
    @Test("prints a one-line summary and exits 0 for the example configuration")
    func valid() throws {
        let path = packageRoot.appendingPathComponent("etc/showcase/showcase.yaml").path
        let result = try checkConfig([path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout
                == "\(path): configuration is valid: 2 hosts (com.quietharbor.NoteJar, com.quietharbor.Brewlog), "
                + "3 storefronts (us, de, jp), 7 overlay entries\n")
    }

    @Test("prints each error as file:line:column: message on stderr and exits 78")
    func invalid() throws {
        let path = fixture("invalid/many-errors.yaml")
        let result = try checkConfig([path])
        #expect(result.status == 78)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(
            lines.first
                == "\(path):3:13: expected an App Store app id (a positive integer like 1234567890) for 'app_id', found 'abc'"
        )
        #expect(lines.contains("\(path):5:1: unknown key 'storefront'; did you mean 'storefronts'?"))
    }

    @Test("refuses a refresh.interval of 9223372036854775s (exit 78, file:line:column), not 'valid'")
    func hugeInterval() throws {
        let directory = try TemporaryDirectory(files: [
            "showcase.yaml": "hosts:\n  - bundle_id: com.quietharbor.NoteJar\nrefresh:\n  interval: 9223372036854775s\n"
        ])
        let path = directory.file("showcase.yaml")
        let result = try checkConfig([path])
        #expect(result.status == 78, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(path):4:13: 'refresh.interval' must be at most 365d, found '9223372036854775s'\n")
    }

    @Test("refuses an export.site.url that is not https and a missing page file (exit 78, file:line:column)")
    func badSite() throws {
        let directory = try TemporaryDirectory(files: [
            "showcase.yaml": minimalHosts
                + "export:\n  directory: /srv/export\n  site:\n    url: http://example.com/apps/\n"
                + "    pages: {1641000101: {support: pages/support.md}}\n"
        ])
        let path = directory.file("showcase.yaml")
        let result = try checkConfig([path])
        #expect(result.status == 78, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "\(path):6:10: 'export.site.url' must be an absolute https URL like https://example.com/apps/, "
                + "found 'http://example.com/apps/'\n"
                + "\(path):7:35: 'export.site.pages.1641000101.support': cannot read "
                + "'\(directory.file("pages/support.md"))': no such file; check the path\n")
    }

    @Test("exits 78 naming the file, with no line and column, when the configuration does not exist")
    func missing() throws {
        let result = try checkConfig(["/nonexistent/showcase.yaml"])
        #expect(result.status == 78)
        #expect(result.stderr.hasPrefix("/nonexistent/showcase.yaml: cannot read '/nonexistent/showcase.yaml'"))
    }

    @Test("checks the default configuration path when none is given")
    func defaultPath() throws {
        let directory = try TemporaryDirectory(files: ["showcase.yaml": minimalHosts])
        let result = try checkConfig(
            [], environment: ["CONFIGURATION_DIRECTORY": directory.path, "HOME": directory.path])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(directory.file("showcase.yaml") + ": configuration is valid: 1 host"))
    }
}
