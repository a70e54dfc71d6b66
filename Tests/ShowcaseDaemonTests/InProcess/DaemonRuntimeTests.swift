import Foundation
import Locking
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

@Suite("The daemon's parts in process: a fake transport and a clock moved by hand")
struct DaemonRuntimeTests {
    let us = StorefrontEdition(TestBed.storefront("us"))

    /// The daemon's parts over `configuration` (re-read from `source` by a reload), its worker running, and the clock.
    final class Harness: Sendable {
        let clock = ManualClock()
        let lookup = FixtureLookup()
        let source: LockedBox<Configuration>
        let runtime: DaemonRuntime
        let worker: Task<Void, Never>

        init(_ configuration: Configuration) async {
            let source = LockedBox(configuration)
            self.source = source
            let lookup = self.lookup
            runtime = DaemonRuntime(
                configuration: configuration, configPath: configuration.path,
                load: { () throws(ConfigErrors) in source.withLock { $0 } }, transport: { _ in lookup },
                clock: clock, jitter: { 0.5 }, log: DaemonLog(environment: [:]),
                notifier: SystemdNotifier(environment: [:]))
            _ = runtime.seeder.loadCache()
            runtime.seeder.scheduleWarm(configuration.storefronts)
            let scheduler = runtime.scheduler
            worker = Task { await scheduler.run() }
        }

        func view(_ code: String) -> RosterView {
            let snapshot = runtime.state.config
            return runtime.reader.view(
                for: RosterRequest(
                    snapshot: snapshot, storefront: TestBed.storefront(code), host: snapshot.configuration.hosts[0]),
                keepWarm: false)
        }

        /// Moves the clock a second at a time (letting the worker run in between) until `condition` holds; false
        /// when it never does within `limit` steps.
        func advance(until condition: () async -> Bool, limit: Int = 2000) async -> Bool {
            for _ in 0..<limit {
                if await condition() { return true }
                clock.advance(by: .seconds(1))
                try? await Task.sleep(for: .milliseconds(5))
            }
            return await condition()
        }

        func stop() async {
            worker.cancel()
            await worker.value
        }
    }

    @Test("a roster is warming, then fresh once fetched, then stale when the interval has passed")
    func warmingFreshStale() async throws {
        let harness = await Harness(
            InProcessFixtures.configuration(interval: .seconds(3600), cache: InProcessFixtures.cacheDirectory()))
        #expect(harness.view("us").state == .warming)
        #expect(await harness.advance { harness.view("us").state == .fresh })
        let fetchedAt = try #require(harness.view("us").fetchedAt)
        #expect(fetchedAt <= harness.clock.now)
        #expect(!harness.view("us").apps.isEmpty)
        // Upstream goes away: the next refresh fails in transport, so the cached roster ages and is served stale.
        harness.lookup.fail(with: .timeout(.seconds(10)))
        harness.clock.advance(by: .seconds(3600))
        #expect(await harness.advance { harness.view("us").state == .stale })
        #expect(harness.view("us").fetchedAt == fetchedAt)
        await harness.stop()
    }

    @Test("a reload changing refresh.interval moves the next refresh, and the refresh happens then")
    func reloadMovesNextRefresh() async throws {
        let day = InProcessFixtures.configuration(interval: .seconds(86_400), cache: InProcessFixtures.cacheDirectory())
        let harness = await Harness(day)
        #expect(await harness.advance { harness.view("us").state == .fresh })
        let fetchedAt = try #require(harness.view("us").fetchedAt)
        let before = try #require(harness.runtime.status.schedule()[us])
        // The next refresh follows the refresh's end, which the stepping clock may have moved a few seconds past
        // the fetch under load: a minute's tolerance still tells a day from an hour.
        #expect(abs(before.timeIntervalSince(fetchedAt) - 86_400) < 60)

        var hour = day
        hour.refresh.interval = .seconds(3600)
        harness.source.withLock { $0 = hour }
        guard case .success(let generation) = await harness.runtime.reload.reload(trigger: "test") else {
            Issue.record("the reload was rejected")
            return
        }
        #expect(generation == 2)
        let after = try #require(harness.runtime.status.schedule()[us])
        #expect(abs(after.timeIntervalSince(fetchedAt) - 3600) < 60)

        let requests = harness.lookup.asked.count
        harness.clock.advance(by: .seconds(3600))
        #expect(await harness.advance { harness.lookup.asked.count > requests })
        await harness.stop()
    }

    @Test("a transport failure with nothing cached shows as unavailable in Status, never warming")
    func unavailableInStatus() async throws {
        let harness = await Harness(InProcessFixtures.configuration(cache: InProcessFixtures.cacheDirectory()))
        harness.lookup.fail(with: .connection(detail: "refused"))
        #expect(await harness.advance { harness.view("us").state == .unavailable })
        let status = harness.runtime.status.status()
        #expect(status.storefronts.map(\.state) == [.unavailable])
        #expect(harness.runtime.status.statusLine() == "1 storefronts: 1 unavailable")
        await harness.stop()
    }
}
