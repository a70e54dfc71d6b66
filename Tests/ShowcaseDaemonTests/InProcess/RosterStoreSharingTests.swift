import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

@Suite("Daemon state: storefronts listing an app alike share its storage")
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

    static func apps(_ state: StateOwner, _ code: String) throws -> [App] {
        let answer = state.answer(
            host: TestBed.tideLog, edition: StorefrontEdition(TestBed.storefront(code)), now: fetchedAt,
            under: state.config)
        guard case .roster(let roster, _) = answer.answer else {
            Issue.record("no roster for \(code): \(answer.answer)")
            return []
        }
        return roster.apps
    }

    /// A state caching in `cache` (a fresh directory when nil) where TideLog's identity is resolved.
    static func identified(cache: FileCache? = nil) -> StateOwner {
        let cache = cache ?? FileCache(directory: URL(fileURLWithPath: InProcessFixtures.cacheDirectory()))
        let store = StateOwner(
            InProcessFixtures.configuration(), cache: cache, transport: { _ in FixtureLookup() }, clock: ManualClock(),
            jitter: { 0.5 })
        store.resolved(
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
        let store = Self.identified(cache: cache)
        let listed = cache.listRosters()
        store.update { state, _ in state.load(identities: [], listed: listed) }
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

    @Test("the sibling is the same developer's roster stored last: never the key's own, never another developer's")
    func siblingIsTheSameDeveloper() {
        typealias Key = RosterBook.Key
        let developer = TestBed.artistId
        let other = developer + 1
        var state = RosterBook()
        let us = Key(artistId: developer, StorefrontEdition(.unitedStates))
        let gb = Key(artistId: developer, StorefrontEdition(TestBed.storefront("gb")))
        let fr = Key(artistId: developer, StorefrontEdition(TestBed.storefront("fr")))
        #expect(state.sibling(of: gb) == nil)
        state.setRecord(RosterRecord(roster: Self.alike("us")), for: us)
        let theirs = Self.alike("de")
        state.setRecord(
            RosterRecord(
                roster: Roster(
                    artistId: other, storefront: theirs.storefront, fetchedAt: theirs.fetchedAt,
                    resultCount: theirs.resultCount, apps: theirs.apps, body: theirs.body)),
            for: Key(artistId: other, StorefrontEdition(theirs.storefront)))
        #expect(state.sibling(of: gb)?.storefront == .unitedStates)
        #expect(state.sibling(of: us) == nil)  // its own roster is not a sibling
        state.setRecord(RosterRecord(), for: fr)  // a record without a roster (a failed first fetch) is none
        #expect(state.sibling(of: gb)?.storefront == .unitedStates)
        state.setRecord(RosterRecord(roster: Self.alike("fr")), for: fr)
        #expect(state.sibling(of: gb)?.storefront == TestBed.storefront("fr"))
        #expect(state.sibling(of: us)?.storefront == TestBed.storefront("fr"))
        #expect(state.sibling(of: Key(artistId: other, StorefrontEdition(.unitedStates)))?.artistId == other)
        #expect(state.sibling(of: Key(artistId: other + 1, StorefrontEdition(.unitedStates))) == nil)
    }
}
