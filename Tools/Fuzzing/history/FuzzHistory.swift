// libFuzzer target: the change history log reader (built only by `make fuzz`).
import Foundation
import FuzzingDriver
import ShowcaseCore
import ShowcaseHistory

private let root = NSTemporaryDirectory() + "showcase-fuzz-history-\(getpid())"
private let store = HistoryStore(directory: root, now: { Date(timeIntervalSince1970: 1_800_000_000) })
private let key = HistoryKey(host: "com.example.Host", edition: StorefrontEdition(try! Storefront(parsing: "us")))
private let folder = root + "/history/com.example.Host"

/// A roster that changes app 1's version on every call, so each record appends an entry after what was read.
private func roster(_ version: Int) -> RosterObservation {
    let app = RosterObservation.App(
        id: 1,
        state: HistoryBaseline.App(
            name: "App", platform: .ios, storeUrl: "https://apps.apple.com/us/app/id1",
            iconUrl: "https://is1-ssl.mzstatic.com/image/1.jpg", version: "\(version)", price: 0,
            formattedPrice: "Free"),
        versionDate: "2026-01-01T00:00:00Z")
    return RosterObservation(artistId: 7, fetchedAt: Date(timeIntervalSince1970: 1_800_000_000), apps: [app])
}

/// The first byte picks what the rest is: even, a log's bytes parsed in memory, every entry read back put through
/// what the daemon does with it (its URLs judged, its date, its line refitted, its time written); odd, the bytes
/// as the log file of a history with a baseline, read and recorded after, so the set-aside path (a serial out of
/// range or order) is reached. Nothing may trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHistory(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let rest = Data(bytes: data + 1, count: size - 1)
    if data[0] & 1 == 0 {
        let log = HistoryLog(parsing: rest)
        for entry in log.entries {
            _ = entry.refusal(under: .standard)
            _ = entry.releaseDate
            _ = entry.fitted()
            _ = RFC3339.seconds(entry.at)
        }
        _ = log.entries.page(since: log.entries.first?.serial, limit: 3)
        _ = HistoryBaseline(encoded: rest)?.applying(log.entries)
    } else {
        try? FileManager.default.removeItem(atPath: folder)
        _ = store.record(roster(0), for: key, hostTrackId: nil, keep: 1)
        try? rest.write(to: URL(fileURLWithPath: folder + "/us.log"))
        _ = store.read(key, keep: 1)
        _ = store.record(roster(1), for: key, hostTrackId: nil, keep: 1)
        _ = store.record(roster(2), for: key, hostTrackId: nil, keep: 1)
        _ = store.read(key, keep: 1)
    }
    return 0
}

/// The entry point: libFuzzer's driver over `fuzzHistory` (see `FuzzingDriver`).
@_cdecl("fuzz_history_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzingDriver.run(argc, argv, fuzzHistory)
}
