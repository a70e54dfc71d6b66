import Foundation
import Locking
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

/// The one owner of the state: the versions it publishes with each answer, and what it does with a transition's
/// change once the lock is released.
@Suite("State owner: one still-current rule for every copy of an answer, and changes carried out")
struct StateOwnerTests {
    let us = TestBed.storefront("us")
    let gb = TestBed.storefront("gb")

    static func owner(_ configuration: Configuration = InProcessFixtures.configuration(storefronts: ["us", "gb"]))
        -> StateOwner
    {
        let cache = FileCache(directory: URL(fileURLWithPath: InProcessFixtures.cacheDirectory(), isDirectory: true))
        return StateOwner(
            configuration, cache: cache, transport: { _ in FixtureLookup() }, clock: ManualClock(), jitter: { 0.5 })
    }

    func identity() -> HostIdentity {
        HostIdentity(
            bundleId: TestBed.tideLog, artistId: TestBed.artistId, trackId: InProcessFixtures.tideLogId,
            storefront: .unitedStates, resolvedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    func version(_ owner: StateOwner, _ storefront: Storefront, under snapshot: ConfigSnapshot? = nil) -> AnswerVersion
    {
        owner.answer(
            host: TestBed.tideLog, edition: StorefrontEdition(storefront), now: owner.clock.now,
            under: snapshot ?? owner.config
        ).version
    }

    func holds(_ version: AnswerVersion, _ owner: StateOwner) -> Bool {
        version.holds(atVersion: owner.version, now: owner.clock.now)
    }

    @Test("a copy holds until its storefront changes, another storefront's change leaves it, a reload ends them all")
    func copiesOfAnswers() {
        let owner = Self.owner()
        owner.resolved(identity())
        let usCopy = version(owner, us)
        let gbCopy = version(owner, gb)
        #expect(holds(usCopy, owner) && holds(gbCopy, owner))
        owner.record(
            artistId: TestBed.artistId, edition: StorefrontEdition(us),
            .success(InProcessFixtures.roster("us", fetchedAt: owner.clock.now)))
        #expect(!holds(usCopy, owner))
        #expect(holds(gbCopy, owner))
        let fresh = version(owner, us)
        #expect(holds(fresh, owner))
        // An identity can change every answer.
        owner.resolved(identity())
        #expect(!holds(fresh, owner) && !holds(gbCopy, owner))
        let beforeReload = version(owner, gb)
        let old = owner.config
        _ = owner.reload(to: InProcessFixtures.configuration(storefronts: ["us", "gb"]))
        #expect(owner.config.generation == 2)
        #expect(!holds(beforeReload, owner))
        // An answer resolved under the configuration a reload replaced never holds, even if read after it.
        #expect(!holds(version(owner, gb, under: old), owner))
        #expect(holds(version(owner, gb), owner))
    }

    @Test("a fresh copy stops holding when its roster turns stale, with nothing changed")
    func copiesExpire() {
        let owner = Self.owner()
        var copy = version(owner, us)
        copy.expires = owner.clock.now.addingTimeInterval(60)
        #expect(holds(copy, owner))
        (owner.clock as? ManualClock)?.advance(by: .seconds(61))
        #expect(!holds(copy, owner))
    }

    @Test("after a transition: roster watchers, the worker, the export and the waits are told, outside the lock")
    func changesAreCarriedOut() {
        var configuration = InProcessFixtures.configuration(storefronts: ["us"])
        configuration.export = ExportSettings(directory: "/in-process/export")
        let owner = Self.owner(configuration)
        let told = LockedBox<[String]>([])
        owner.observe { observers in
            observers.rostersChanged.append { storefront in
                // Called without the lock held: reading the state from here must not deadlock.
                let warm = owner.isWarm(storefront)
                told.withLock { $0.append("roster \(storefront.code) warm \(warm)") }
            }
            observers.queueChanged = { forgotten in told.withLock { $0.append("queue \(forgotten.count)") } }
            observers.exportScheduleChanged = { told.withLock { $0.append("export") } }
        }
        let now = owner.moment
        owner.update { state, draw in state.keepWarm(state.config.configuration.editions, at: now, draw: draw) }
        #expect(told.withLock { $0 } == ["queue 0"])
        told.withLock { $0 = [] }
        owner.resolved(identity())
        owner.record(
            artistId: TestBed.artistId, edition: StorefrontEdition(us),
            .success(InProcessFixtures.roster("us", fetchedAt: owner.clock.now)))
        #expect(told.withLock { $0 } == ["roster us warm true", "export"])
        // The roster change reached the export schedule under the same lock: a pass after the debounce.
        let instant = owner.clock.instant
        #expect(
            owner.read { $0.exportSchedule.next(now: instant) }
                == .sleep(until: instant + owner.read { $0.exportSchedule.debounce }))

        let answered = LockedBox(0)
        let wait = SettleWait(
            id: SettleWait.ID(), timer: Task {}, answer: { deliver in if deliver { answered.withLock { $0 += 1 } } })
        #expect(owner.update { state, _ in state.admitWait(wait, for: StorefrontEdition(self.us)) } == true)
        owner.update { state, _ in state.settleWaits(StorefrontEdition(self.us)) }
        #expect(answered.withLock { $0 } == 1)
    }

    @Test("a listed cache file found unusable when first read is a miss: reported, and refetched at once when warm")
    func unusableListedFile() throws {
        let owner = Self.owner(InProcessFixtures.configuration(storefronts: ["us"]))
        let roster = InProcessFixtures.roster("us", fetchedAt: owner.clock.now)
        try owner.cache.store(roster)
        let listed = owner.cache.listRosters()
        #expect(listed.count == 1)
        // Cut every roster file after its header line: listed fine, unusable once decoded.
        let directory = owner.cache.directory.path
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasPrefix("roster") {
            let path = directory + "/" + name
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let header = data.prefix { $0 != UInt8(ascii: "\n") }
            try (header + Data("\n{\"truncated".utf8)).write(to: URL(fileURLWithPath: path))
        }
        let unusable = LockedBox<[StorefrontEdition]>([])
        owner.observe { $0.unusable = { edition in unusable.withLock { $0.append(edition) } } }
        let now = owner.moment
        owner.update { state, _ in state.load(identities: [identity()], listed: listed) }
        // Scheduled from the listed header's fresh fetch time: not due for a day.
        owner.update { state, draw in state.keepWarm([StorefrontEdition(self.us)], at: now, draw: draw) }
        #expect(owner.read { $0.nextJob(at: now.instant) } != .run(StorefrontEdition(us)))

        let found = owner.answer(
            host: TestBed.tideLog, edition: StorefrontEdition(us), now: owner.clock.now, under: owner.config)
        guard case .warming = found.answer else {
            Issue.record("an unusable file answered \(found.answer)")
            return
        }
        #expect(unusable.withLock { $0 } == [StorefrontEdition(us)])
        #expect(owner.read { $0.nextJob(at: now.instant) } == .run(StorefrontEdition(us)))
        #expect(owner.undecodedCount == 0)
    }
}
