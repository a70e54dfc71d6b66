// swift-tools-version: 6.0
import PackageDescription

// The data's path, one module per step (see README "Architecture"):
// Apple's bytes (fetched by ShowcaseDaemon through CCurl's libcurl) → ShowcaseCore (decode, resolve, cache) →
// ShowcaseDaemon (schedule, store, methods) → Varlink (protocol, sockets) → showcasectl. ShowcaseConfig turns YAML
// (via CYaml) into typed settings; ShowcaseAPI is the wire contract both ends of the socket share. ShowcaseExport
// turns resolved rosters into the static tree web servers serve — JSON, web fragments, Atom feeds, the site's pages
// (gzip via CZlib, Markdown via CCmarkGFM) — and ShowcaseHistory keeps the changes the feeds list; neither knows the
// daemon, which calls them with plain values. Beneath them: Locking (the one lock and thread start),
// DirectorySafety (writes into trees others may write in) and CSystem (the Linux calls Swift cannot reach).
// Sources/ is the product: the modules showcased, showcasectl and the Varlink library are built from. Tools/ holds
// what only development runs (the replay, the certification service, the benchmark, the export sample, the fuzz
// targets); Tests/ the suites and their shared helper.
// Each target below carries its charter: what it owns, and "May use" exactly its dependencies
// (scripts/check-layout.py, run by `make lint`, holds every charter to its list and Sources/ to the product).
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
        // zlib through pkg-config; only ShowcaseExport (the .json.gz files) and LookupReplay (the replay's PNG icons)
        // may use it.
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
        // ThreadSanitizer's acquire/release annotations (weak: null outside a -sanitize=thread build). May use nothing.
        .target(name: "CSystem", path: "Sources/CSystem"),
        // `Lock`: Synchronization.Mutex with its critical sections reported to ThreadSanitizer, which cannot see
        // Mutex's own locking on Linux. Every module that locks uses it instead of Mutex; `startDetachedThread` is
        // the one way to start a thread (Foundation's `Thread` would link ICU). May use CSystem only.
        .target(name: "Locking", dependencies: ["CSystem"]),
        // One bounded HTTP GET over libcurl (variadic curl_easy_setopt needs C): the daemon's upstream transport.
        // May use nothing (libcurl itself, linked here).
        .target(name: "CCurl", path: "Sources/CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // Lookup requests and decoding, rosters and their resolution, the file cache, storefronts, and time (the
        // injected clock, freshness, the refresh schedule). No sockets, no YAML.
        // May use FoundationEssentials and DirectorySafety (the cache's writes) only.
        .target(name: "ShowcaseCore", dependencies: ["DirectorySafety"]),
        // YAML → a validated Configuration with file:line:column errors. May use CYaml and ShowcaseCore.
        .target(name: "ShowcaseConfig", dependencies: ["CYaml", "ShowcaseCore"]),
        // A directory reached only through its descriptor, never following a link, never blocking on a file, creating
        // files exclusively: how the daemon writes in trees others may write in too. May use CSystem only.
        .target(name: "DirectorySafety", dependencies: ["CSystem"]),
        // The static export: JSON documents, index.json, the Atom feeds, the web fragments, Markdown pages, atomic
        // write-when-changed with a manifest. May use ShowcaseCore, ShowcaseHistory (the feeds' entries), CZlib,
        // CCmarkGFM (Markdown), DirectorySafety (the tree's writes and syncfs) and Locking.
        .target(
            name: "ShowcaseExport",
            dependencies: ["ShowcaseCore", "ShowcaseHistory", "CZlib", "CCmarkGFM", "DirectorySafety", "Locking"]),
        // The change history (SPEC §15): the diff of consecutive rosters, and the append-only logs and baselines
        // under state.directory/history. Pure but for those files. May use ShowcaseCore, DirectorySafety and Locking.
        .target(name: "ShowcaseHistory", dependencies: ["ShowcaseCore", "DirectorySafety", "Locking"]),
        // The Varlink protocol, server and client; knows nothing about rosters. May use CSystem and Locking only.
        .target(name: "Varlink", dependencies: ["CSystem", "Locking"]),
        // The io.showcase.* contract: IDL text, method and error names, typed requests and replies, the requests
        // holding the domain's types (Storefront, Platform, OSVersion) parsed where a call is read, and the IDL's
        // `type App` written from ShowcaseCore's field table (AppField): a client gets the contract without the
        // daemon. May use Varlink (JSONValue, VarlinkError) and ShowcaseCore.
        .target(name: "ShowcaseAPI", dependencies: ["Varlink", "ShowcaseCore"]),
        // The running daemon: its state and composition root (Runtime/), the refresh queue and scheduler, upstream
        // and rate limiter (libcurl through CCurl), the Varlink methods (API/), the export loop (Export/), the history
        // and the process lifecycle; showcased is a thin main over it. May use ShowcaseCore, ShowcaseConfig, ShowcaseAPI,
        // ShowcaseExport, ShowcaseHistory, Varlink, Locking, CCurl and DirectorySafety.
        .target(
            name: "ShowcaseDaemon",
            dependencies: [
                "ShowcaseCore", "ShowcaseConfig", "ShowcaseAPI", "ShowcaseExport", "Varlink", "Locking", "CCurl",
                "DirectorySafety", "ShowcaseHistory",
            ]),
        // The daemon's thin main. May use ShowcaseDaemon only.
        .executableTarget(name: "showcased", dependencies: ["ShowcaseDaemon"]),
        // The command-line client: arguments, output. Never ShowcaseDaemon (it would load the networking stack).
        // May use ShowcaseAPI, ShowcaseCore, ShowcaseConfig (check-config, the default paths), Varlink and Locking.
        .executableTarget(
            name: "showcasectl", dependencies: ["ShowcaseAPI", "ShowcaseCore", "ShowcaseConfig", "Varlink", "Locking"]
        ),
        // Development tools, under Tools/: built with the tests, never shipped, so they may use Foundation.
        // A loopback stand-in for Apple's lookup API serving Fixtures/ (and invented icons, PNG through CZlib), for
        // the tests and the demo. May use Foundation, Locking and CZlib only.
        .target(name: "LookupReplay", dependencies: ["Locking", "CZlib"], path: "Tools/LookupReplay"),
        // The replay's command line (`lookup-replay --fixtures DIR [--port N] [--serve-icons]`).
        // May use Foundation and LookupReplay.
        .executableTarget(name: "lookup-replay", dependencies: ["LookupReplay"], path: "Tools/lookup-replay"),
        // The org.varlink.certification service and client on our Varlink module, for `make conformance`.
        // May use Foundation and Varlink.
        .executableTarget(name: "varlink-certify", dependencies: ["Varlink"], path: "Tools/varlink-certify"),
        // The benchmark (`make bench`): load, probes, generated caches and the floor server (epoll through CSystem).
        // May use Foundation, ShowcaseCore and CSystem.
        .executableTarget(
            name: "showcase-bench", dependencies: ["ShowcaseCore", "CSystem"], path: "Tools/showcase-bench"),
        // Writes an export tree from Fixtures/ (no daemon) for scripts/check-export-web.sh's nginx and Chromium.
        // May use Foundation, ShowcaseExport, ShowcaseConfig and ShowcaseCore.
        .executableTarget(
            name: "showcase-export-sample", dependencies: ["ShowcaseExport", "ShowcaseConfig", "ShowcaseCore"],
            path: "Tools/showcase-export-sample"),
        // Tests: one target per module; the daemon's and showcasectl's also run the built binaries end to end.
        .testTarget(name: "ShowcaseCoreTests", dependencies: ["ShowcaseCore"]),
        // The test harnesses' shared helper: which build's binaries to spawn, and sanitizer reports in them.
        // May use Foundation only.
        .target(name: "BuiltProducts", path: "Tests/Support"),
        .testTarget(name: "ShowcaseConfigTests", dependencies: ["ShowcaseConfig", "ShowcaseCore", "BuiltProducts"]),
        .testTarget(
            name: "ShowcaseExportTests", dependencies: ["ShowcaseExport", "ShowcaseCore", "ShowcaseHistory", "Locking"]),
        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(
            name: "ShowcaseHistoryTests", dependencies: ["ShowcaseHistory", "ShowcaseCore", "DirectorySafety"]),
        .testTarget(name: "DirectorySafetyTests", dependencies: ["DirectorySafety"]),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "Locking", "CSystem"]),
        .testTarget(name: "ShowcaseAPITests", dependencies: ["ShowcaseAPI", "ShowcaseCore", "Varlink"]),
        .testTarget(
            name: "ShowcaseDaemonTests",
            dependencies: [
                "ShowcaseDaemon", "ShowcaseAPI", "ShowcaseCore", "ShowcaseConfig", "ShowcaseExport", "Varlink",
                "LookupReplay", "BuiltProducts", "Locking", "ShowcaseHistory",
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
        // May use nothing.
        .target(name: "FuzzingDriver", path: "Tools/Fuzzing/driver"),
        // Each target below: the module it fuzzes and FuzzingDriver, and Foundation (never shipped).
        // The YAML reader and the configuration loader. May use ShowcaseConfig and FuzzingDriver.
        .executableTarget(
            name: "fuzz-config", dependencies: ["ShowcaseConfig", "FuzzingDriver"], path: "Tools/Fuzzing/config"),
        // The JSON parser and Varlink framing, through a real server. May use Varlink and FuzzingDriver.
        .executableTarget(
            name: "fuzz-varlink", dependencies: ["Varlink", "FuzzingDriver"], path: "Tools/Fuzzing/varlink"),
        // The lookup decoder, roster and identity. May use ShowcaseCore and FuzzingDriver.
        .executableTarget(
            name: "fuzz-lookup", dependencies: ["ShowcaseCore", "FuzzingDriver"], path: "Tools/Fuzzing/lookup"),
        // The cache record reader. May use ShowcaseCore and FuzzingDriver.
        .executableTarget(
            name: "fuzz-cache", dependencies: ["ShowcaseCore", "FuzzingDriver"], path: "Tools/Fuzzing/cache"),
        // The URL rules store and icon URLs pass. May use ShowcaseCore and FuzzingDriver.
        .executableTarget(
            name: "fuzz-urls", dependencies: ["ShowcaseCore", "FuzzingDriver"], path: "Tools/Fuzzing/urls"),
        // The image header reader icons pass before they are stored. May use ShowcaseCore and FuzzingDriver.
        .executableTarget(
            name: "fuzz-images", dependencies: ["ShowcaseCore", "FuzzingDriver"], path: "Tools/Fuzzing/images"),
        // The change history's log reader. May use ShowcaseHistory, ShowcaseCore and FuzzingDriver.
        .executableTarget(
            name: "fuzz-history", dependencies: ["ShowcaseHistory", "ShowcaseCore", "FuzzingDriver"],
            path: "Tools/Fuzzing/history"),
    ]
}
