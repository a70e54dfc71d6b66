import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

/// The daemon's state transitions as plain values: no clock, no task, no file — each step is given its time.
@Suite("Daemon state: reloads, refresh outcomes, identity transfers and language changes as transitions")
struct DaemonStateTests {
    let start = RefreshQueue.Moment(date: Date(timeIntervalSince1970: 1_800_000_000), instant: ContinuousClock.now)
    let us = TestBed.storefront("us")
    let gb = TestBed.storefront("gb")
    let fr = TestBed.storefront("fr")
    let ca = TestBed.storefront("ca")
    let english = RosterLanguage(parsing: "en")!
    let french = RosterLanguage(parsing: "fr")!

    func later(_ duration: Duration) -> RefreshQueue.Moment {
        RefreshQueue.Moment(date: start.date.addingTimeInterval(duration.seconds), instant: start.instant + duration)
    }

    /// `configuration` as generation `generation`.
    static func snapshot(_ configuration: Configuration, generation: Int = 1) -> ConfigSnapshot {
        ConfigSnapshot(configuration: configuration, generation: generation, transport: FixtureLookup())
    }

    /// A state running `configuration` with its storefronts on the schedule at `start`.
    func warmState(_ configuration: Configuration) -> DaemonState {
        var state = DaemonState(config: Self.snapshot(configuration))
        let change = state.keepWarm(configuration.editions, at: start, draw: { 0.5 })
        #expect(change.queueChanged)
        return state
    }

    func identity(artistId: Int = TestBed.artistId, trackId: Int = InProcessFixtures.tideLogId) -> HostIdentity {
        HostIdentity(
            bundleId: TestBed.tideLog, artistId: artistId, trackId: trackId, storefront: .unitedStates,
            resolvedAt: start.date)
    }

    func answer(_ state: DaemonState, _ edition: StorefrontEdition) -> (RosterAnswer, Int) {
        switch state.rosters.answer(
            host: TestBed.tideLog, edition: edition, now: start.date, lifetime: .seconds(86_400))
        {
        case .answer(let answer, let revision, _): return (answer, revision)
        case .decodeFirst: return (.warming, Int.min)
        }
    }

    // MARK: Reload

    @Test(
        "a reload queues new storefronts, forgets removed ones (a running one when its refresh ends), bumps the generation"
    )
    func reloadChangesTheWarmSet() {
        let configuration = InProcessFixtures.configuration(storefronts: ["us", "gb", "de"])
        var state = warmState(configuration)
        #expect(state.warm == [us, gb, TestBed.storefront("de")])
        _ = state.beginRefresh(StorefrontEdition(gb))

        let next = InProcessFixtures.configuration(storefronts: ["us", "fr"])
        let (reload, change) = state.reload(
            to: Self.snapshot(next, generation: state.config.generation + 1), at: later(.seconds(10)),
            draw: { 0.5 })
        #expect(reload.generation == 2 && state.config.generation == 2)
        #expect(reload.added == [StorefrontEdition(fr)])
        #expect(Set(reload.removed) == [StorefrontEdition(gb), StorefrontEdition(TestBed.storefront("de"))])
        // de was waiting: it left at once, and its callers are told. gb runs: it leaves when its refresh ends.
        #expect(change.forgotten == [StorefrontEdition(TestBed.storefront("de"))])
        #expect(change.everything && change.queueChanged)
        #expect(change.announced == [us, fr])
        #expect(change.export == nil)
        #expect(state.warm == [us, fr])
        #expect(!state.isWarm(gb))
        #expect(state.queue.editions.contains(StorefrontEdition(gb)))
        _ = state.finishRefresh(StorefrontEdition(gb), .updated(changed: true), at: later(.seconds(11)), unit: 0.5)
        #expect(!state.queue.editions.contains(StorefrontEdition(gb)))
        // A new storefront without a cached roster is due at once.
        #expect(state.nextJob(at: later(.seconds(10)).instant) != .idle)
    }

    @Test("a reload with another refresh.interval moves a fetched roster's next refresh to fetch + the new interval")
    func reloadReschedules() {
        let day = InProcessFixtures.configuration(storefronts: ["us"], interval: .seconds(86_400))
        var state = warmState(day)
        _ = state.resolved(identity())  // else the reload brings a host not resolved yet forward
        let edition = StorefrontEdition(us)
        _ = state.beginRefresh(edition)
        _ = state.finishRefresh(edition, .updated(changed: true), at: start, unit: 0.5)
        #expect(state.nextRefreshes(at: start, pauseEnd: nil)[edition] == start.date.addingTimeInterval(86_400))

        var hour = day
        hour.refresh.interval = .seconds(3600)
        _ = state.reload(to: Self.snapshot(hour, generation: 2), at: later(.seconds(60)), draw: { 0.5 })
        #expect(
            state.nextRefreshes(at: later(.seconds(60)), pauseEnd: nil)[edition]
                == start.date.addingTimeInterval(3600))
    }

    @Test("a reload naming a host not resolved yet brings every configured edition forward; the export runs at once")
    func reloadWithNewHostExpedites() {
        var configuration = InProcessFixtures.configuration(storefronts: ["us", "gb"])
        configuration.export = ExportSettings(directory: "/in-process/export")
        var state = warmState(configuration)
        _ = state.resolved(identity())
        for code in [us, gb] {
            let edition = StorefrontEdition(code)
            _ = state.beginRefresh(edition)
            _ = state.finishRefresh(edition, .updated(changed: true), at: start, unit: 0.5)
        }
        #expect(state.nextJob(at: later(.seconds(60)).instant) != .run(StorefrontEdition(us)))

        var more = configuration
        more.hosts.append(HostConfiguration(bundleID: "com.quietharbor.Other"))
        let (_, change) = state.reload(to: Self.snapshot(more, generation: 2), at: later(.seconds(60)), draw: { 0.5 })
        #expect(change.export == .configuration)
        guard case .run = state.nextJob(at: later(.seconds(60)).instant) else {
            Issue.record("no edition brought forward: \(state.nextJob(at: later(.seconds(60)).instant))")
            return
        }
    }

    @Test("a rejected reload keeps the configuration and its generation, and says why until one succeeds")
    func rejectedReload() {
        var state = warmState(InProcessFixtures.configuration())
        let rejected = state.rejectReload("showcase.yaml:3:1: unknown key")
        // Nothing served changes: no copy goes stale, the worker and the exporter are not woken.
        #expect(!rejected.everything && !rejected.queueChanged && rejected.export == nil)
        #expect(state.config.generation == 1)
        #expect(state.lastReloadError == "showcase.yaml:3:1: unknown key")
        _ = state.reload(to: Self.snapshot(InProcessFixtures.configuration(), generation: 2), at: start, draw: { 0.5 })
        #expect(state.lastReloadError == nil)
    }

    // MARK: Refresh outcomes

    @Test("outcomes: new content is a new revision; the same is not; a timeout keeps the roster; a diagnostic wins")
    func refreshOutcomes() {
        var configuration = InProcessFixtures.configuration()
        configuration.export = ExportSettings(directory: "/in-process/export")
        var state = warmState(configuration)
        let edition = StorefrontEdition(us)
        let key = RosterBook.Key(artistId: TestBed.artistId, edition)
        #expect(answer(state, edition).1 == 0)  // no identity yet: warming
        #expect(state.resolved(identity()).1.everything)
        let roster = InProcessFixtures.roster("us", fetchedAt: start.date)

        let (changed, change) = state.record(.success(roster), for: key)
        #expect(changed && change.storefronts == [us] && change.export == .rosters && !change.everything)
        guard case (.roster(_, .fresh), 1) = answer(state, edition) else {
            Issue.record("not served fresh at revision 1: \(answer(state, edition))")
            return
        }
        #expect(!state.record(.success(roster), for: key).0)
        // A transport failure says nothing about the data: the roster stays, still revision 1.
        let (timedOut, timeoutChange) = state.record(.failure(.timeout(.seconds(10))), for: key)
        #expect(!timedOut && timeoutChange.storefronts == [us])
        guard case (.roster, 1) = answer(state, edition) else {
            Issue.record("a timeout hid the roster: \(answer(state, edition))")
            return
        }
        // A diagnostic is answered instead of the roster until a refresh succeeds.
        #expect(state.record(.failure(.malformed(detail: "test")), for: key).0)
        guard case (.failed(.malformed), 2) = answer(state, edition) else {
            Issue.record("the diagnostic is not answered: \(answer(state, edition))")
            return
        }
        #expect(!state.record(.failure(.timeout(.seconds(10))), for: key).0)
        guard case (.failed, 2) = answer(state, edition) else {
            Issue.record("a timeout replaced the diagnostic: \(answer(state, edition))")
            return
        }
        #expect(state.record(.success(roster), for: key).0)
        guard case (.roster, 3) = answer(state, edition) else {
            Issue.record("a success did not clear the diagnostic: \(answer(state, edition))")
            return
        }
    }

    @Test("Status keeps a diagnostic as the last refresh error through later timeouts, and a success clears it")
    func lastRefreshError() {
        var state = warmState(InProcessFixtures.configuration())
        let edition = StorefrontEdition(us)
        _ = state.finishedRefresh(edition, error: .malformed(detail: "x"), cacheWriteError: nil)
        _ = state.finishedRefresh(edition, error: .timeout(.seconds(1)), cacheWriteError: nil)
        #expect(state.rosters.lastRefreshError[edition] == .malformed(detail: "x"))
        _ = state.finishedRefresh(edition, error: nil, cacheWriteError: "disk full")
        #expect(state.rosters.lastRefreshError[edition] == nil)
        #expect(state.rosters.cacheWriteError[edition] == "disk full")
    }

    // MARK: Identity

    @Test("a transferred host app is served from its new developer's rosters, with a warning until it resolves again")
    func identityTransfer() {
        var state = warmState(InProcessFixtures.configuration())
        let edition = StorefrontEdition(us)
        #expect(state.resolved(identity()).0 == .first)
        _ = state.record(
            .success(InProcessFixtures.roster("us", fetchedAt: start.date)),
            for: RosterBook.Key(artistId: TestBed.artistId, edition))
        guard case (.roster, 1) = answer(state, edition) else {
            Issue.record("the developer's roster is not served: \(answer(state, edition))")
            return
        }

        let newDeveloper = TestBed.artistId + 7
        let (change, stateChange) = state.resolved(identity(artistId: newDeveloper))
        #expect(change == .transferred(from: TestBed.artistId))
        #expect(stateChange.everything)
        let warning = state.rosters.hostWarnings[TestBed.tideLog] ?? ""
        #expect(warning.contains("\(TestBed.artistId)") && warning.contains("\(newDeveloper)"))
        // The new developer has no roster yet: warming, not the old developer's apps.
        guard case (.warming, 0) = answer(state, edition) else {
            Issue.record("still serving the old developer: \(answer(state, edition))")
            return
        }
        #expect(state.resolved(identity(artistId: newDeveloper)).0 == .same)
        #expect(state.rosters.hostWarnings[TestBed.tideLog] == nil)
    }

    @Test(
        "a known host whose re-resolution ends in a diagnostic keeps its identity, checked again later, with a warning")
    func reresolutionFailure() {
        var state = warmState(InProcessFixtures.configuration())
        _ = state.resolved(identity())
        let error = LookupError.hostAppNotFound(bundleId: TestBed.tideLog, storefront: us)
        #expect(state.reresolutionFailed(TestBed.tideLog, in: us, error, at: later(.seconds(99)).date).everything)
        #expect(state.rosters.identities[TestBed.tideLog]?.artistId == TestBed.artistId)
        #expect(state.rosters.identities[TestBed.tideLog]?.resolvedAt == later(.seconds(99)).date)
        #expect(state.rosters.hostWarnings[TestBed.tideLog]?.contains("no longer knows") == true)
    }

    // MARK: Languages

    @Test("configuring languages drops a storefront's plain roster and queues one per language; locales pick theirs")
    func languageChange() {
        var state = warmState(InProcessFixtures.configuration(storefronts: ["us", "ca"]))
        #expect(state.queue.editions == [StorefrontEdition(us), StorefrontEdition(ca)])

        var bilingual = InProcessFixtures.configuration(storefronts: ["us", "ca"])
        bilingual.languages = [ca: [english, french]]
        let (reload, change) = state.reload(
            to: Self.snapshot(bilingual, generation: 2), at: later(.seconds(5)), draw: { 0.5 })
        let (en, fr) = (StorefrontEdition(ca, language: english), StorefrontEdition(ca, language: french))
        #expect(Set(reload.added) == [en, fr])
        #expect(change.forgotten == [StorefrontEdition(ca)])
        #expect(state.queue.editions == [StorefrontEdition(us), en, fr])
        #expect(state.warm == [us, ca])
        #expect(state.config.configuration.edition(of: ca, locale: "fr-CA") == fr)
        #expect(state.config.configuration.edition(of: ca, locale: nil) == en)

        // Back to one language: French leaves, English stays on its schedule.
        var english = bilingual
        english.languages = [ca: [self.english]]
        let (_, back) = state.reload(to: Self.snapshot(english, generation: 3), at: later(.seconds(6)), draw: { 0.5 })
        #expect(back.forgotten == [fr])
        #expect(state.queue.editions == [StorefrontEdition(us), en])
    }

    @Test("a storefront outside the configuration joins the warm set once: from a cached fetch time, else at once")
    func onDemand() {
        var state = warmState(InProcessFixtures.configuration(storefronts: ["us"]))
        let (joined, change) = state.keepWarmOnDemand(gb, cachedAt: nil, at: start, draw: { 0.5 })
        #expect(joined && change.queueChanged)
        #expect(state.queue.isUrgent(StorefrontEdition(gb)))
        #expect(!state.keepWarmOnDemand(gb, cachedAt: nil, at: start, draw: { 0.5 }).0)
        let (cached, _) = state.keepWarmOnDemand(fr, cachedAt: start.date, at: start, draw: { 0.5 })
        #expect(cached && !state.queue.isUrgent(StorefrontEdition(fr)))
        #expect(state.warm == [us, gb, fr])
    }

    // MARK: Waits

    @Test("waits: the first of an edition starts its fetch, none past the limit, and the fetch's end settles them all")
    func waits() {
        var state = DaemonState(config: Self.snapshot(InProcessFixtures.configuration()), waitLimit: 3)
        let edition = StorefrontEdition(us)
        let waits = (0..<4).map { _ in SettleWait(id: SettleWait.ID(), timer: Task {}, answer: { _ in }) }
        #expect(state.admitWait(waits[0], for: edition).0 == true)
        #expect(state.admitWait(waits[1], for: edition).0 == false)
        #expect(state.admitWait(waits[2], for: StorefrontEdition(gb)).0 == true)
        // Past the limit: not booked, and ended at once without an answer (its timer cancelled by the owner).
        let (refused, change) = state.admitWait(waits[3], for: edition)
        #expect(refused == nil)
        #expect(change.endedWaits.map(\.wait.id) == [waits[3].id] && change.endedWaits.allSatisfy { !$0.deliver })
        #expect(state.endWait(waits[1].id, for: edition, deliver: false).endedWaits.count == 1)
        #expect(state.waits.count == 2)
        let settled = state.settleWaits(edition).endedWaits
        #expect(settled.count == 1 && settled[0].wait.id == waits[0].id && settled[0].deliver)
        #expect(state.waits.count == 1)
        #expect(state.admitWait(waits[3], for: edition).0 == true)
    }
}
