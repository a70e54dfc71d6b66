import Foundation
import ShowcaseConfig
import ShowcaseCore

@testable import ShowcaseDaemon

/// Configurations and rosters for the in-process tests, built from `Fixtures/lookup` without a file or a socket.
enum InProcessFixtures {
    /// TideLog's own track id.
    static let tideLogId = 1_641_000_101

    /// One host (TideLog), warm in `storefronts`, refreshed every `interval`, caching in `cache`.
    static func configuration(
        storefronts: [String] = ["us"], host: String = TestBed.tideLog, appID: Int? = nil,
        interval: Duration = .seconds(86_400), cache: String = NSTemporaryDirectory()
    ) -> Configuration {
        Configuration(
            path: "/in-process/showcase.yaml", hosts: [HostConfiguration(bundleID: host, appID: appID)],
            storefronts: storefronts.map(TestBed.storefront),
            refresh: RefreshSchedule(interval: interval, jitter: 0, retry: .seconds(60)),
            lookup: LookupSettings(rateLimit: RateLimit(requests: 600, per: .seconds(60))),
            cache: CacheSettings(directory: cache), socket: SocketSettings(path: "/in-process/showcased.sock"),
            state: StateSettings(directory: NSTemporaryDirectory() + "showcase-in-process-\(UUID().uuidString)"))
    }

    /// The fixture roster of `code`, fetched at `fetchedAt`.
    static func roster(_ code: String, fetchedAt: Date) -> Roster {
        try! Roster(
            artistId: TestBed.artistId, storefront: TestBed.storefront(code),
            body: TestBed.fixtureData("roster-\(TestBed.artistId)-\(code).json"), fetchedAt: fetchedAt)
    }

    /// A request for the first host in `code` under `configuration`.
    static func request(_ code: String, _ configuration: Configuration = configuration()) -> RosterRequest {
        let snapshot = ConfigSnapshot(configuration: configuration, generation: 1, transport: FixtureLookup())
        return RosterRequest(snapshot: snapshot, storefront: TestBed.storefront(code), host: configuration.hosts[0])
    }

    /// A fresh temporary cache directory.
    static func cacheDirectory() -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "showcase-inprocess-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}
