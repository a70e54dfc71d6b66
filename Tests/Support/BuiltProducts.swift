import Foundation

/// The binaries of the build these tests belong to, and what a child process needs so that a sanitizer
/// report in it fails the test that started it.
///
/// `swift test` runs the test bundle from the products directory it was built into (`.build/debug`, or
/// `.build/asan/<triple>/debug` under `make sanitize`), next to `showcased`, `showcasectl` and `lookup-replay`
/// of the same build. Spawning those — not a fixed `.build/debug` — is what puts a sanitized daemon under the
/// end-to-end suites of a sanitized build.
public enum BuiltProducts {
    /// The package root, from this file's path (Tests/Support/BuiltProducts.swift); `SHOWCASE_PACKAGE_ROOT`
    /// overrides it.
    public static let packageRoot =
        ProcessInfo.processInfo.environment["SHOWCASE_PACKAGE_ROOT"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The products directory: `$SHOWCASE_PRODUCTS_DIR` when set; otherwise the directory of the running test
    /// bundle when `showcased` was built next to it; otherwise `.build/debug` under the package root.
    public static let directory: URL = {
        if let configured = ProcessInfo.processInfo.environment["SHOWCASE_PRODUCTS_DIR"], !configured.isEmpty {
            return URL(fileURLWithPath: configured, isDirectory: true)
        }
        if let bundle = runningExecutable() {
            let candidate = bundle.deletingLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("showcased").path) {
                return candidate
            }
        }
        return packageRoot.appendingPathComponent(".build/debug", isDirectory: true)
    }()

    /// The built executable `name` (`showcased`, `showcasectl`, `lookup-replay`, …) of this build.
    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// ``url(_:)`` as a path.
    public static func path(_ name: String) -> String { url(name).path }

    /// The sanitizer settings of this run (`ASAN_OPTIONS`, `TSAN_OPTIONS`, `SWIFT_BACKTRACE`, …), for a child
    /// started with an environment of its own: without them it would run with the sanitizers' defaults, which let
    /// ThreadSanitizer carry on after a report.
    public static var sanitizerEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { sanitizerVariables.contains($0.key) }
    }

    /// `environment` with this run's sanitizer settings added (the caller's own values win).
    public static func withSanitizerSettings(_ environment: [String: String]) -> [String: String] {
        sanitizerEnvironment.merging(environment) { $1 }
    }

    /// A sentence quoting the sanitizer report in `output` (a child's stderr or log), or nil when there is none.
    public static func sanitizerReport(in output: String) -> String? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { line in reportMarkers.contains { line.contains($0) } }) else {
            return nil
        }
        let excerpt = lines[first...].prefix(40).joined(separator: "\n")
        return "a sanitizer reported an error in a child process (its full output is in the test's log):\n\(excerpt)"
    }

    private static let sanitizerVariables: Set<String> = [
        "ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "ASAN_SYMBOLIZER_PATH",
        "TSAN_SYMBOLIZER_PATH", "LLVM_SYMBOLIZER_PATH", "SWIFT_BACKTRACE",
    ]

    private static let reportMarkers = [
        "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer", "ERROR: ThreadSanitizer",
    ]

    /// The running executable (the test bundle under `swift test`), symlinks resolved.
    private static func runningExecutable() -> URL? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: target)
        }
        return CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath() }
    }
}
