import BuiltProducts
import Foundation
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The outcome of one `showcasectl` run: what a user or a script would see.
struct CtlResult: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the built `showcasectl` binary, as a user would, with a controlled environment.
///
/// Tests go through the executable rather than its types: exit statuses, stdout and stderr are
/// the command's public surface (showcasectl(1)), and this is what scripts depend on.
enum Ctl {
    /// The package root, found from this file's path (Tests/ShowcaseCtlTests/Ctl.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `showcasectl` of the build these tests belong to (see ``BuiltProducts``), or `$SHOWCASECTL` when set
    /// (e.g. a release build).
    static var binary: String {
        ProcessInfo.processInfo.environment["SHOWCASECTL"] ?? BuiltProducts.path("showcasectl")
    }

    /// A scratch directory removed by the caller; short, because socket paths are limited to 108 bytes.
    static func temporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/ctl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// An environment that cannot reach a real daemon by accident: the default socket is looked
    /// for under a fresh directory, and nothing about colour is set (this run's sanitizer settings are kept).
    static func baseEnvironment(runtimeDirectory: String) -> [String: String] {
        BuiltProducts.withSanitizerSettings([
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": runtimeDirectory,
            "XDG_RUNTIME_DIR": runtimeDirectory,
            "XDG_CONFIG_HOME": runtimeDirectory + "/config",
            "LANG": "C.UTF-8",
        ])
    }

    /// Runs `showcasectl ARGUMENTS` to completion and returns its status and output.
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, prefix: [String] = []
    ) throws -> CtlResult {
        try #require(
            FileManager.default.isExecutableFile(atPath: binary),
            "no showcasectl at \(binary): build it first (swift build --product showcasectl; make test does)")
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let environment = environment ?? baseEnvironment(runtimeDirectory: scratch.path)
        if prefix.isEmpty {
            return try Tool.capture(binary, arguments, environment: environment)
        }
        return try Tool.capture(
            prefix[0], Array(prefix.dropFirst()) + [try worldReadableBinary()] + arguments, environment: environment)
    }

    /// A copy of the binary under /tmp that any user may run: tests that act as another user
    /// (`setpriv`) cannot rely on the checkout's directories being open to them (a clone under
    /// /root is not). One fixed place per checkout, replaced atomically, so runs leave no litter.
    static func worldReadableBinary() throws -> String {
        try copyLock.withLock {
            if let copied = copiedBinary { return copied }
            let checkout = binary.utf8.reduce(UInt64(14_695_981_039_346_656_037)) {
                ($0 ^ UInt64($1)) &* 1_099_511_628_211
            }
            let directory = "/tmp/showcasectl-tests/\(String(checkout, radix: 16))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let copy = directory + "/showcasectl"
            let staging = directory + "/showcasectl.\(getpid())"
            try? FileManager.default.removeItem(atPath: staging)
            try FileManager.default.copyItem(atPath: binary, toPath: staging)
            for path in ["/tmp/showcasectl-tests", directory, staging] {
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            }
            guard rename(staging, copy) == 0 else {
                throw StaleSocket.Failure(description: "cannot place a copy of showcasectl at \(copy): errno \(errno)")
            }
            copiedBinary = copy
            return copy
        }
    }

    private static let copyLock = NSLock()
    nonisolated(unsafe) private static var copiedBinary: String?

    /// The flags showcasectl(1) gives each command (global ones aside).
    static let specFlags: [String: [String]] = [
        "roster": ["--storefront", "--host", "--platform", "--device", "--os-version", "--locale", "--wait"],
        "app": ["--storefront", "--host"],
        "storefronts": [],
        "watch": ["--storefront"],
        "status": [],
        "reload": [],
        "refresh": ["--storefront"],
        "check-config": [],
        "export": [],
        "check": ["--max-age"],
        "metrics": [],
        "changes": ["--storefront", "--host", "--since", "--limit", "--locale"],
        "version": [],
    ]

    /// Every command of showcasectl(1).
    static let specCommands = [
        "roster", "app", "storefronts", "watch", "status", "reload", "refresh", "check-config", "check", "export",
        "metrics", "changes", "version",
    ]
}
