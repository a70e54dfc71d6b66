import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

@Suite("Roster store: storefronts listing an app alike share its storage")
struct RosterStoreSharingTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// The `us` fixture as `code` lists it alike: the same fields, the store URLs naming `code`.
    static func alike(_ code: String) -> Roster {
        let us = InProcessFixtures.roster("us", fetchedAt: fetchedAt)
        let apps = us.apps.map { app in
            var moved = app
            moved.storeUrl = app.storeUrl.replacingOccurrences(of: "/us/", with: "/\(code)/")
            return moved
        }
        return Roster(
            artistId: us.artistId, storefront: TestBed.storefront(code), fetchedAt: fetchedAt,
            resultCount: us.resultCount, apps: apps, body: us.body)
    }

    static func apps(_ store: RosterStore, _ code: String) throws -> [App] {
        let answer = store.answer(
            host: TestBed.tideLog, edition: StorefrontEdition(TestBed.storefront(code)), now: fetchedAt,
            lifetime: .seconds(86_400))
        guard case .roster(let roster, _) = answer.answer else {
            Issue.record("no roster for \(code): \(answer.answer)")
            return []
        }
        return roster.apps
    }

    static func identified() -> RosterStore {
        let store = RosterStore()
        store.setIdentity(
            HostIdentity(
                bundleId: TestBed.tideLog, artistId: TestBed.artistId, trackId: InProcessFixtures.tideLogId,
                storefront: .unitedStates, resolvedAt: fetchedAt))
        return store
    }

    @Test("rosters decoded from the cache share one record per app across storefronts, and keep their URLs")
    func fromTheCache() throws {
        let directory = InProcessFixtures.cacheDirectory()
        let cache = FileCache(directory: URL(fileURLWithPath: directory, isDirectory: true))
        for code in ["us", "gb", "fr"] { try cache.store(Self.alike(code)) }
        let store = Self.identified()
        store.load(identities: [], listed: cache.listRosters(), from: cache)
        let us = try Self.apps(store, "us")
        for code in ["gb", "fr"] {
            let other = try Self.apps(store, code)
            #expect(other == Self.alike(code).apps)
            #expect(other.count == us.count && !other.isEmpty)
            #expect(zip(other, us).allSatisfy { $0.sharesStorage(with: $1) })
        }
    }

    @Test("a refreshed roster shares the records of a sibling storefront's equal apps, not of changed ones")
    func fromARefresh() throws {
        let store = Self.identified()
        store.record(artistId: TestBed.artistId, edition: StorefrontEdition(.unitedStates), .success(Self.alike("us")))
        var gb = Self.alike("gb")
        var apps = gb.apps
        apps[0].name = "Renamed in gb"
        gb = Roster(
            artistId: gb.artistId, storefront: gb.storefront, fetchedAt: gb.fetchedAt, resultCount: gb.resultCount,
            apps: apps, body: gb.body)
        store.record(artistId: TestBed.artistId, edition: StorefrontEdition(gb.storefront), .success(gb))
        let us = try Self.apps(store, "us")
        let shared = try Self.apps(store, "gb")
        #expect(shared == apps)
        #expect(!shared[0].sharesStorage(with: us[0]))
        #expect(zip(shared.dropFirst(), us.dropFirst()).allSatisfy { $0.sharesStorage(with: $1) })
    }
}
