// libFuzzer target: the lookup decoder, roster and identity (built only by `make fuzz`).
import Foundation
import FuzzingDriver
import ShowcaseCore

private let storefront = try! Storefront(parsing: "us")

/// Any bytes as an upstream body: decoded as a roster and as a host identity. A decoded roster must hold
/// no more apps than the request's limit, no repeated id, only apps of its own developer's storefront, and only
/// URLs the default URL rules allow.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLookup(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = size > 0 && data != nil ? Data(bytes: data!, count: size) : Data()
    if let roster = try? Roster(artistId: 1_641_000_001, storefront: storefront, body: body, fetchedAt: Date()) {
        precondition(roster.apps.count <= LookupRequest.rosterLimit, "more apps than the request's limit")
        precondition(Set(roster.apps.map(\.id)).count == roster.apps.count, "a repeated app id was kept")
        precondition(!roster.apps.isEmpty || roster.droppedRows.count == 0, "an all-dropped roster was accepted")
        precondition(
            roster.apps.allSatisfy { URLRules.standard.dropReason(for: $0) == nil }, "a URL the rules refuse was kept")
        _ = roster.compacted().hasSameContent(as: roster)
    }
    _ = try? HostIdentity.decode(
        bundleId: "com.quietharbor.TideLog", storefront: storefront, body: body, resolvedAt: Date())
    return 0
}

/// The entry point: libFuzzer's driver over `fuzzLookup` (see `FuzzingDriver`).
@_cdecl("fuzz_lookup_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzingDriver.run(argc, argv, fuzzLookup)
}
