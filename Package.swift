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
        // One bounded HTTP GET over libcurl (variadic curl_easy_setopt needs C): the daemon's upstream transport.
        .target(name: "CCurl", path: "Sources/CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "ShowcaseCore"),
        .target(name: "ShowcaseConfig", dependencies: ["CYaml", "ShowcaseCore"]),
        .target(name: "Varlink", dependencies: ["CSystem"]),
        .target(
            name: "ShowcaseDaemon", dependencies: ["ShowcaseCore", "ShowcaseConfig", "Varlink", "CSystem", "CCurl"]),
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

// libFuzzer targets, declared only for `make fuzz` (SHOWCASE_FUZZ=1, built with -sanitize=fuzzer into
// .build/fuzz): each defines LLVMFuzzerTestOneInput and no main, so an ordinary build must not see them.
if Context.environment["SHOWCASE_FUZZ"] != nil {
    package.targets += [
        .executableTarget(name: "fuzz-config", dependencies: ["ShowcaseConfig"], path: "Sources/Fuzzing/config"),
        .executableTarget(name: "fuzz-varlink", dependencies: ["Varlink"], path: "Sources/Fuzzing/varlink"),
        .executableTarget(name: "fuzz-lookup", dependencies: ["ShowcaseCore"], path: "Sources/Fuzzing/lookup"),
        .executableTarget(name: "fuzz-cache", dependencies: ["ShowcaseCore"], path: "Sources/Fuzzing/cache"),
    ]
}
