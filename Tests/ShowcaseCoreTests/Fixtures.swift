import Foundation
import ShowcaseCore

/// Reads `Fixtures/lookup/` relative to this file, not through bundle resources.
enum Fixtures {
    static let lookupDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/lookup", isDirectory: true)

    static let artistId = 1641000001
    static let tideLog = "com.quietharbor.TideLog"
    static let knotbook = "com.quietharbor.Knotbook"
    static let tideLogId = 1641000101
    static let knotbookId = 1641000102
    static let lanternlightId = 1641000103  // iOS, floor 9.0
    static let galleyId = 1641000104  // iOS, floor 18.0, absent from jp
    static let tideLogMacId = 1641000201  // Mac, floor 10.13

    /// "Lamplight Works": a second invented developer whose `us` roster has one app per device-family shape.
    static let lamplightArtistId = 1642000001
    static let beacon = "com.lamplight.Beacon"

    static func lamplightRoster() -> Roster {
        try! Roster(
            artistId: lamplightArtistId, storefront: storefront("us"), body: data("roster-1642000001-us.json"),
            fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    static func data(_ name: String) -> Data {
        try! Data(contentsOf: lookupDirectory.appendingPathComponent(name))
    }

    static func storefront(_ code: String) -> Storefront { try! Storefront(parsing: code) }

    static func roster(_ code: String, fetchedAt: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> Roster {
        try! Roster(
            artistId: artistId, storefront: storefront(code), body: data("roster-\(artistId)-\(code).json"),
            fetchedAt: fetchedAt)
    }
}

/// A transport that answers from the fixtures like the replay server does, or with a chosen error, and
/// records what it was asked.
final class FixtureTransport: LookupTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var _requests: [LookupRequest] = []
    private let failure: LookupError?

    init(failing failure: LookupError? = nil) { self.failure = failure }

    var requests: [LookupRequest] { lock.withLock { _requests } }

    func fetch(_ request: LookupRequest) async throws(LookupError) -> Data {
        lock.withLock { _requests.append(request) }
        if let failure { throw failure }
        let name =
            switch request {
            case .identity(let bundleId, let storefront): "identity-\(bundleId)-\(storefront.code).json"
            case .roster(let artistId, let storefront, let language):
                "roster-\(artistId)-\(storefront.code)\(language.map { "-\($0.code)" } ?? "").json"
            }
        let url = Fixtures.lookupDirectory.appendingPathComponent(name)
        return (try? Data(contentsOf: url)) ?? Fixtures.data("empty.json")
    }
}
