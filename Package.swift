// swift-tools-version: 6.0
import PackageDescription

// The data's path, one module per step (see README "Architecture"):
// Apple's bytes → ShowcaseCore (decode, resolve, cache) → ShowcaseDaemon (schedule, store, methods)
// → Varlink (protocol, sockets) → showcasectl. ShowcaseConfig turns YAML (via CYaml) into typed settings;
// ShowcaseAPI is the wire contract both ends of the socket share. ShowcaseExport turns resolved rosters into the
// static JSON tree web servers serve (gzip via CZlib, Markdown via CCmarkGFM); it knows nothing of the daemon, so the daemon calls it with
// plain values.
// Each target below carries its charter: what it owns, and what it may depend on.
let package = Package(
    name: "Showcase",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "showcased", targets: ["showcased"]),
        .executable(name: "showcasectl", targets: ["showcasectl"]),
        .library(name: "Varlink", targets: ["Varlink"]),
    ],
    targets: [
        // libyaml through pkg-config; only ShowcaseConfig may use it.
        .systemLibrary(
            name: "CYaml",
            path: "Sources/CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // zlib through pkg-config, for ShowcaseExport's .json.gz files.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // cmark-gfm (CommonMark with GitHub's extensions) through pkg-config `libcmark-gfm`, whose Libs name the
        // extensions library too; only ShowcaseExport's Markdown renderer may use it.
        .systemLibrary(
            name: "CCmarkGFM",
            path: "Sources/CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // The few Linux calls Swift cannot reach without _GNU_SOURCE (epoll, accept4, SO_PEERCRED, eventfd), and
        // ThreadSanitizer's acquire/release annotations (weak: null outside a -sanitize=thread build).
        .target(name: "CSystem", path: "Sources/CSystem"),
        // `Lock`: Synchronization.Mutex with its critical sections reported to ThreadSanitizer, which cannot see
        // Mutex's own locking on Linux. Every module that locks uses it instead of Mutex; `startDetachedThread` is
        // the one way to start a thread (Foundation's `Thread` would link ICU). May use CSystem only.
        .target(name: "Locking", dependencies: ["CSystem"]),
        // One bounded HTTP GET over libcurl (variadic curl_easy_setopt needs C): the daemon's upstream transport.
        .target(name: "CCurl", path: "Sources/CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // ShowcaseCore: FoundationEssentials and DirectorySafety (the cache's writes) only — lookup requests and decoding,
        // rosters and their resolution, the file cache,
        // storefronts, and time (the injected clock, freshness, the refresh schedule). No sockets, no YAML.
        .target(name: "ShowcaseCore", dependencies: ["DirectorySafety"]),
        // YAML → a validated Configuration with file:line:column errors. May use CYaml and ShowcaseCore.
        .target(name: "ShowcaseConfig", dependencies: ["CYaml", "ShowcaseCore"]),
        // A directory reached only through its descriptor, never following a link, never blocking on a file, creating
        // files exclusively: how the daemon writes in trees others may write in too. May use CSystem only.
        .target(name: "DirectorySafety", dependencies: ["CSystem"]),
        // The static export: JSON documents, index.json, the Atom feeds, the web fragments, Markdown pages, atomic
        // write-when-changed with a manifest. May use ShowcaseCore, ShowcaseHistory (the feeds' entries), CZlib,
        // CCmarkGFM (Markdown), CSystem (syncfs), DirectorySafety (the tree's writes) and Locking.
        .target(
            name: "ShowcaseExport",
            dependencies: [
                "ShowcaseCore", "ShowcaseHistory", "CZlib", "CCmarkGFM", "CSystem", "DirectorySafety", "Locking",
            ]),
        // The change history (SPEC §15): the diff of consecutive rosters, and the append-only logs and baselines
        // under state.directory/history. Pure but for those files. May use ShowcaseCore, DirectorySafety and Locking.
        .target(name: "ShowcaseHistory", dependencies: ["ShowcaseCore", "DirectorySafety", "Locking"]),
        // The Varlink protocol, server and client; knows nothing about rosters. May use CSystem and Locking only.
        .target(name: "Varlink", dependencies: ["CSystem", "Locking"]),
        // The io.showcase.* contract: IDL text, method and error names, typed requests and replies.
        // May use Varlink only (JSONValue, VarlinkError), so a client gets the contract without the daemon.
        .target(name: "ShowcaseAPI", dependencies: ["Varlink"]),
        // ShowcaseDaemon: the running daemon — RosterService (state), refresh queue and scheduler, upstream and rate
        // limiter (libcurl through CCurl), the Varlink methods (API/), the export loop (Export/), and the process
        // lifecycle; showcased is a thin main over it.
        .target(
            name: "ShowcaseDaemon",
            dependencies: [
                "ShowcaseCore", "ShowcaseConfig", "ShowcaseAPI", "ShowcaseExport", "Varlink", "Locking", "CCurl",
                "DirectorySafety", "ShowcaseHistory",
            ]),
        // A loopback stand-in for Apple's lookup API serving Fixtures/ (and invented icons, PNG through CZlib), for
        // tests and the demo. Foundation, Locking and CZlib only.
        .target(name: "LookupReplay", dependencies: ["Locking", "CZlib"], path: "Tools/LookupReplay"),
        // The daemon's thin main.
        .executableTarget(name: "showcased", dependencies: ["ShowcaseDaemon"]),
        // The command-line client: arguments, output. Never ShowcaseDaemon (it would load the networking stack).
        .executableTarget(
            name: "showcasectl", dependencies: ["ShowcaseAPI", "ShowcaseCore", "ShowcaseConfig", "Varlink", "Locking"]
        ),
        // Development tools: the org.varlink.certification service, the lookup replay server, the benchmark.
        .executableTarget(name: "varlink-certify", dependencies: ["Varlink"], path: "Tools/varlink-certify"),
        .executableTarget(name: "lookup-replay", dependencies: ["LookupReplay"], path: "Tools/lookup-replay"),
        .executableTarget(
            name: "showcase-bench", dependencies: ["ShowcaseCore", "CSystem"], path: "Tools/showcase-bench"),
        // Writes an export tree from Fixtures/ (no daemon) for scripts/check-export-web.sh's nginx and Chromium.
        .executableTarget(
            name: "showcase-export-sample", dependencies: ["ShowcaseExport", "ShowcaseConfig", "ShowcaseCore"],
            path: "Tools/showcase-export-sample"),
        // Tests: one target per module; the daemon's and showcasectl's also run the built binaries end to end.
        .testTarget(name: "ShowcaseCoreTests", dependencies: ["ShowcaseCore"]),
        // The test harnesses' shared helper: which build's binaries to spawn, and sanitizer reports in them.
        .target(name: "BuiltProducts", path: "Tests/Support"),
        .testTarget(name: "ShowcaseConfigTests", dependencies: ["ShowcaseConfig", "ShowcaseCore", "BuiltProducts"]),
        .testTarget(
            name: "ShowcaseExportTests", dependencies: ["ShowcaseExport", "ShowcaseCore", "ShowcaseHistory", "Locking"]),
        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(
            name: "ShowcaseHistoryTests", dependencies: ["ShowcaseHistory", "ShowcaseCore", "DirectorySafety"]),
        .testTarget(name: "DirectorySafetyTests", dependencies: ["DirectorySafety"]),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "Locking"]),
        .testTarget(name: "ShowcaseAPITests", dependencies: ["ShowcaseAPI", "Varlink"]),
        .testTarget(
            name: "ShowcaseDaemonTests",
            dependencies: [
                "ShowcaseDaemon", "ShowcaseAPI", "ShowcaseCore", "ShowcaseConfig", "Varlink", "LookupReplay",
                "BuiltProducts", "Locking",
            ]
        ),
        .testTarget(
            name: "ShowcaseCtlTests",
            dependencies: ["Varlink", "LookupReplay", "ShowcaseCore", "ShowcaseAPI", "ShowcaseConfig", "BuiltProducts"]
        ),
        .testTarget(name: "ShowcaseBenchTests", dependencies: ["showcase-bench"]),
    ]
)

// libFuzzer targets, declared only for `make fuzz` (SHOWCASE_FUZZ=1, built with -sanitize=fuzzer into
// .build/fuzz): each defines LLVMFuzzerTestOneInput and no main, so an ordinary build must not see them.
if Context.environment["SHOWCASE_FUZZ"] != nil {
    package.targets += [
        // The libFuzzer entry the seven targets share (each keeps only its own test function and `<module>_main`).
        .target(name: "FuzzingDriver", path: "Tools/Fuzzing/driver"),
        .executableTarget(
            name: "fuzz-config", dependencies: ["ShowcaseConfig", "FuzzingDriver"], path: "Tools/Fuzzing/config"),
        .executableTarget(
            name: "fuzz-varlink", dependencies: ["Varlink", "FuzzingDriver"], path: "Tools/Fuzzing/varlink"),
        .executableTarget(
            name: "fuzz-lookup", dependencies: ["ShowcaseCore", "FuzzingDriver"], path: "Tools/Fuzzing/lookup"),
        .executableTarget(
            name: "fuzz-cache", dependencies: ["ShowcaseCore", "FuzzingDriver"], path: "Tools/Fuzzing/cache"),
        .executableTarget(
            name: "fuzz-urls", dependencies: ["ShowcaseCore", "FuzzingDriver"], path: "Tools/Fuzzing/urls"),
        .executableTarget(
            name: "fuzz-images", dependencies: ["ShowcaseCore", "FuzzingDriver"], path: "Tools/Fuzzing/images"),
        .executableTarget(
            name: "fuzz-history", dependencies: ["ShowcaseHistory", "ShowcaseCore", "FuzzingDriver"],
            path: "Tools/Fuzzing/history"),
    ]
}
