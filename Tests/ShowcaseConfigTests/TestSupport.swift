import BuiltProducts
import Foundation
import ShowcaseConfig
import Testing

/// The package root, found from this file's path so tests run from any working directory.
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `showcasectl` of the build these tests belong to (`.build/debug`, or the sanitized one under `make sanitize`).
let showcasectl = BuiltProducts.url("showcasectl")

/// `environment` for a `showcasectl` started with an environment of its own, plus this run's sanitizer settings.
func showcasectlEnvironment(_ environment: [String: String]) -> [String: String] {
    BuiltProducts.withSanitizerSettings(environment)
}

func fixture(_ relative: String) -> String {
    packageRoot.appendingPathComponent("Fixtures/config").appendingPathComponent(relative).path
}

/// A fresh directory under the system temporary directory holding the given files.
final class TemporaryDirectory {
    let path: String

    init(files: [String: String] = [:]) throws {
        path = NSTemporaryDirectory() + "showcase-config-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, contents) in files { try write(name, contents) }
    }

    func write(_ name: String, _ contents: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Defaults for a non-root user with XDG variables set, so tests never depend on who runs them.
let testDefaults = DefaultPaths(
    environment: ["HOME": "/home/tester", "XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)

/// Loads `yaml` written as `showcase.yaml` next to `files`.
func load(_ yaml: String, files: [String: String] = [:]) throws -> Configuration {
    let directory = try TemporaryDirectory(files: files.merging(["showcase.yaml": yaml]) { $1 })
    return try ConfigLoader.load(path: directory.file("showcase.yaml"), defaults: testDefaults)
}

/// The errors loading `yaml` produces, as (line, column, code) plus messages; fails the test if it loads.
func errors(_ yaml: String, files: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws -> [ConfigError]
{
    let directory = try TemporaryDirectory(files: files.merging(["showcase.yaml": yaml]) { $1 })
    do {
        let configuration = try ConfigLoader.load(path: directory.file("showcase.yaml"), defaults: testDefaults)
        Issue.record(
            "expected errors, but the configuration loaded: \(configuration.summary)", sourceLocation: sourceLocation)
        return []
    } catch {
        return error.errors
    }
}

/// The errors loading the fixture `name` (under Fixtures/config) produces; fails the test if it loads.
func errors(inFixture name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [ConfigError] {
    do {
        let configuration = try ConfigLoader.load(path: fixture(name), defaults: testDefaults)
        Issue.record("expected errors, but \(name) loaded: \(configuration.summary)", sourceLocation: sourceLocation)
        return []
    } catch {
        return error.errors
    }
}

/// The single error of `yaml`; fails the test when there is not exactly one.
func onlyError(_ yaml: String, files: [String: String] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws -> ConfigError?
{
    let all = try errors(yaml, files: files, sourceLocation: sourceLocation)
    #expect(all.count == 1, "errors: \(all)", sourceLocation: sourceLocation)
    return all.first
}

let minimalHosts = """
    hosts:
      - bundle_id: com.quietharbor.NoteJar

    """
