// libFuzzer target: the YAML reader and the configuration loader (built only by `make fuzz`).
import Foundation
import FuzzingDriver
import ShowcaseConfig

/// A private directory for the file the loader reads (it loads paths, and resolves overlays next to them).
private let directory: String = {
    let path = NSTemporaryDirectory() + "showcase-fuzz-config-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

private let defaults = DefaultPaths(
    environment: ["HOME": "/nonexistent", "XDG_RUNTIME_DIR": "/nonexistent/run"], uid: 1000)

/// Any bytes: parsed as YAML, then loaded as a configuration file (and as an overlay file). Errors are
/// expected; a crash, a hang or unbounded memory is the bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    _ = try? YAMLReader().parse(bytes, file: "fuzz.yaml")
    let path = directory + "/showcase.yaml"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return 0 }
    _ = try? ConfigLoader.load(path: path, defaults: defaults)
    _ = try? ConfigLoader.loadOverlay(path: path)
    return 0
}

/// The entry point: libFuzzer's driver over `fuzzConfig` (see `FuzzingDriver`).
@_cdecl("fuzz_config_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzingDriver.run(argc, argv, fuzzConfig)
}
