// libFuzzer target: the cache record reader (built only by `make fuzz`).
import Foundation
import FuzzingDriver
import ShowcaseCore

private let cache: FileCache = {
    let path = NSTemporaryDirectory() + "showcase-fuzz-cache-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return FileCache(directory: URL(fileURLWithPath: path, isDirectory: true))
}()

private let artistId = 1_641_000_001
private let storefront = try! Storefront(parsing: "us")

/// The first byte picks what the rest is: even, a whole roster, identity and diagnostic file as found on
/// disk (headers with any numbers, any lengths); odd, the apps section of a roster file whose header and
/// checksums are valid, so the line decoder itself is reached. Every read must be a miss or a roster, never a
/// crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let rest = Data(bytes: data + 1, count: size - 1)
    let rosterURL = cache.rosterURL(artistId: artistId, storefront: storefront)
    if data[0] & 1 == 0 {
        try? rest.write(to: rosterURL)
        try? rest.write(to: cache.identityURL(bundleId: "com.quietharbor.TideLog"))
        try? rest.write(to: cache.diagnosticURL(for: .roster(artistId: artistId), storefront: storefront))
        _ = cache.loadRoster(artistId: artistId, storefront: storefront)
        _ = cache.loadAllRosters()
        _ = cache.loadIdentity(bundleId: "com.quietharbor.TideLog")
        _ = cache.loadAllDiagnostics()
    } else {
        let body = Data(#"{"resultCount":0,"results":[]}"#.utf8)
        let header =
            #"{"appsBytes":\#(rest.count),"appsFNV1a":"\#(FNV1a.hex(rest))","artistId":\#(artistId),"#
            + #""bodyBytes":\#(body.count),"bodyFNV1a":"\#(FNV1a.hex(body))","fetchedAtMilliseconds":1800000000000,"#
            + #""format":"showcase-roster","resultCount":1,"storefront":"us","version":1}"#
        var file = Data(header.utf8)
        file.append(0x0A)
        file.append(rest)
        file.append(0x0A)
        file.append(body)
        try? file.write(to: rosterURL)
        for roster in cache.loadAllRosters() {
            _ = roster.apps.map(\.storeUrl)
        }
    }
    return 0
}

/// The entry point: libFuzzer's driver over `fuzzCache` (see `FuzzingDriver`).
@_cdecl("fuzz_cache_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzingDriver.run(argc, argv, fuzzCache)
}
