import Foundation
import Locking
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport
import Testing

@testable import ShowcaseDaemon

@Suite("Exporter in process: passes counted, the clock moved by hand")
struct ExporterTests {
    /// An exporter whose loop runs against a plan that counts its passes, into a fresh directory.
    final class Harness: Sendable {
        let clock: ManualClock
        let exporter: Exporter
        let shutdown = ShutdownSignal()
        let passes = LockedBox(0)
        let directory = InProcessFixtures.cacheDirectory()
        let loop: Task<Void, Never>

        init(configured: Bool = true, clock: ManualClock = ManualClock()) {
            self.clock = clock
            let exporter = Exporter(clock: clock, log: DaemonLog(environment: [:]), debounce: .milliseconds(200))
            self.exporter = exporter
            let (passes, directory, shutdown) = (passes, directory, shutdown)
            loop = Task {
                await exporter.run(until: shutdown) {
                    passes.withLock { $0 += 1 }
                    return configured ? Exporter.Plan(settings: ExportSettings(directory: directory), rosters: []) : nil
                }
            }
        }

        var count: Int { passes.withLock { $0 } }

        /// Waits (bounded against hangs) until `condition` holds.
        func until(_ condition: () -> Bool) async -> Bool {
            for _ in 0..<2000 {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return condition()
        }

        func stop() async {
            shutdown.fire()
            await loop.value
        }
    }

    @Test("a burst of roster changes is one pass, run only once the debounce has passed")
    func burstIsOnePass() async throws {
        let harness = Harness()
        for _ in 0..<5 { harness.exporter.rostersChanged() }
        #expect(await harness.until { harness.clock.sleeperCount == 1 })
        #expect(harness.count == 0, "nothing runs before the debounce ends")
        harness.exporter.rostersChanged()
        harness.clock.advance(by: .milliseconds(200))
        #expect(await harness.until { harness.count == 1 })
        #expect(await harness.until { harness.exporter.lastPass != nil })
        // Every change so far was before the pass began: no second pass follows, so the next one is the one asked
        // for, and nothing waits for a debounce.
        _ = await harness.exporter.exportNow()
        #expect(harness.count == 2, "a pass ran that no change asked for")
        #expect(harness.clock.sleeperCount == 0)
        await harness.stop()
    }

    @Test("hands what a pass saw of the files to the next, which then reads none of them back")
    func remembersBetweenPasses() async throws {
        let harness = Harness()
        let first = await harness.exporter.exportNow()
        #expect(first?.written == 2, "index.json and its .gz")
        // Once the files are older than a clock tick by the exporter's clock (which stands in 2027, long after their
        // ctimes), a pass reads them back once and trusts them from then on.
        let checked = await harness.exporter.exportNow()
        #expect(checked?.filesRead == 2)
        let trusted = await harness.exporter.exportNow()
        #expect(trusted?.filesRead == 0)
        #expect(trusted?.unchanged == 2)
        await harness.stop()
    }

    @Test("a file a pass wrote is trusted once the exporter's clock, not the machine's, is past its settle margin")
    func settlesByTheExportersClock() async {
        // The clock starts before the files are written, so their ctimes are within its settle margin until it moves.
        let harness = Harness(clock: ManualClock(now: Date()))
        #expect(await harness.exporter.exportNow()?.written == 2)
        for _ in 0..<2 {
            #expect(await harness.exporter.exportNow()?.filesRead == 2, "trusted before the clock moved")
        }
        harness.clock.advance(by: .seconds(3600))
        #expect(await harness.exporter.exportNow()?.filesRead == 2)
        #expect(await harness.exporter.exportNow()?.filesRead == 0, "still read back after the clock moved")
        await harness.stop()
    }

    @Test("Admin.Export and a reload do not wait for the debounce; Export answers with its pass's report")
    func urgentPassesRunAtOnce() async throws {
        let harness = Harness()
        let report = await harness.exporter.exportNow()
        #expect(report?.directory == harness.directory)
        #expect(report?.written == 2, "index.json and its .gz")
        #expect(harness.count == 1)
        harness.exporter.configurationChanged()
        #expect(await harness.until { harness.count == 2 })
        #expect(harness.clock.sleeperCount == 0)
        let again = await harness.exporter.exportNow()
        #expect(again?.written == 0)
        #expect(again?.unchanged == 2)
        #expect(harness.count == 3)
        await harness.stop()
    }

    @Test("without an export section a pass does nothing and Admin.Export gets nil")
    func notConfigured() async {
        let harness = Harness(configured: false)
        #expect(await harness.exporter.exportNow() == nil)
        #expect(harness.exporter.lastPass == nil)
        await harness.stop()
    }

    @Test("at shutdown a debounced change is dropped, and an Admin.Export still waiting gets its pass")
    func shutdownAnswersWaiters() async {
        let harness = Harness()
        harness.exporter.rostersChanged()
        #expect(await harness.until { harness.clock.sleeperCount == 1 })
        let waiting = Task { await harness.exporter.exportNow() }
        #expect(await harness.until { harness.exporter.waitingCalls == 1 })
        harness.shutdown.fire()
        await harness.loop.value
        let report = await waiting.value
        #expect(report?.directory == harness.directory)
        #expect(harness.count == 1, "one pass, for the waiting call")
    }
}
