// swift-tools-version: 6.0
import PackageDescription

// The data's path, one module per step (see README "Architecture"):
// Apple's bytes → ShowcaseCore (decode, resolve, cache) → ShowcaseDaemon (schedule, store, methods)
// → Varlink (protocol, sockets) → showcasectl. ShowcaseConfig turns YAML (via CYaml) into typed settings.
let package = Package(
    name: "Showcase",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "showcased", targets: ["showcased"]),
        .executable(name: "showcasectl", targets: ["showcasectl"]),
        .library(name: "Varlink", targets: ["Varlink"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYaml",
            path: "Sources/CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "CSystem", path: "Sources/CSystem"),
        // ShowcaseCore: Foundation only — lookup requests and decoding, rosters and their resolution, the file cache,
        // storefronts, and time (the injected clock, freshness, the refresh schedule). No sockets, no YAML.
        .target(name: "ShowcaseCore"),
        .target(name: "ShowcaseConfig", dependencies: ["CYaml", "ShowcaseCore"]),
        .target(name: "Varlink", dependencies: ["CSystem"]),
        // ShowcaseDaemon: the running daemon — RosterService (state), refresh queue and scheduler, upstream and rate
        // limiter, the Varlink methods (API/), and the process lifecycle; showcased is a thin main over it.
        .target(name: "ShowcaseDaemon", dependencies: ["ShowcaseCore", "ShowcaseConfig", "Varlink"]),
        .target(name: "LookupReplay"),
        .executableTarget(name: "showcased", dependencies: ["ShowcaseDaemon"]),
        .executableTarget(name: "showcasectl", dependencies: ["ShowcaseCore", "ShowcaseConfig", "Varlink"]),
        .executableTarget(name: "varlink-certify", dependencies: ["Varlink"]),
        .executableTarget(name: "lookup-replay", dependencies: ["LookupReplay"]),
        .executableTarget(name: "showcase-bench", dependencies: ["ShowcaseCore", "CSystem"]),
        .testTarget(name: "ShowcaseCoreTests", dependencies: ["ShowcaseCore"]),
        .testTarget(name: "ShowcaseConfigTests", dependencies: ["ShowcaseConfig", "ShowcaseCore"]),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink"]),
        .testTarget(
            name: "ShowcaseDaemonTests",
            dependencies: ["ShowcaseDaemon", "ShowcaseCore", "ShowcaseConfig", "Varlink", "LookupReplay"]
        ),
        .testTarget(
            name: "ShowcaseCtlTests", dependencies: ["Varlink", "LookupReplay", "ShowcaseCore", "ShowcaseDaemon"]
        ),
        .testTarget(name: "ShowcaseBenchTests", dependencies: ["showcase-bench"]),
    ]
)
