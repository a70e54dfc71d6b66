import Dispatch
import Foundation
import Locking
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport
import Testing

@testable import ShowcaseDaemon

@Suite("Exporter in process: passes counted, the clock moved by hand")
struct ExporterTests {
    /// An exporter whose loop runs against a plan that counts its passes, into a fresh directory, woken by its
    /// state's owner as the daemon wires it.
    final class Harness: Sendable {
        let clock: ManualClock
        let exporter: Exporter
        let shutdown: ShutdownSignal
        let passes = LockedBox(0)
        let directory = InProcessFixtures.cacheDirectory()
        let loop: Task<Void, Never>

        /// With `firstPassGate`, the first pass waits for it before reading its plan, so calls can arrive during it.
        init(configured: Bool = true, clock: ManualClock = ManualClock(), firstPassGate: DispatchSemaphore? = nil) {
            self.clock = clock
            let cache = FileCache(
                directory: URL(fileURLWithPath: InProcessFixtures.cacheDirectory(), isDirectory: true))
            let owner = StateOwner(
                InProcessFixtures.configuration(), cache: cache, transport: { _ in FixtureLookup() }, clock: clock,
                jitter: { 0.5 })
            shutdown = ShutdownSignal(state: owner)
            let exporter = Exporter(state: owner, log: DaemonLog(environment: [:]))
            owner.observe { $0.exportScheduleChanged = { exporter.wake() } }
            self.exporter = exporter
            let (passes, directory, shutdown) = (passes, directory, shutdown)
            loop = Task {
                await exporter.run(until: shutdown) {
                    if passes.withLock({ count in
                        count += 1
                        return count
                    }) == 1 {
                        firstPassGate?.wait()
                    }
                    return configured ? Exporter.Plan(settings: ExportSettings(directory: directory), rosters: []) : nil
                }
            }
        }

        var count: Int { passes.withLock { $0 } }

        /// A roster changes, and the loop sleeps through its debounce (bounded against hangs).
        func debouncedChange() async -> Bool {
            exporter.rostersChanged()
            return await until { clock.sleeperCount == 1 }
        }

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

    @Test("an Admin.Export during a debounce cuts it short, and its pass covers the debounced change")
    func exportCutsTheDebounceShort() async {
        let harness = Harness()
        #expect(await harness.debouncedChange())
        let call = Task { await harness.exporter.exportNow() }
        #expect(await harness.until { harness.count == 1 }, "the call waited for the debounce to end")
        // Ends the debounce for a loop that still waits for it; nothing is left to run for one that did not.
        harness.clock.advance(by: .milliseconds(200))
        #expect(await call.value?.written == 2)
        #expect(await harness.until { harness.clock.sleeperCount == 0 })
        #expect(harness.count == 1, "the debounced change was covered by the call's pass")
        await harness.stop()
    }

    @Test("without an export section a pass does nothing and Admin.Export gets nil")
    func notConfigured() async {
        let harness = Harness(configured: false)
        #expect(await harness.exporter.exportNow() == nil)
        #expect(harness.exporter.lastPass == nil)
        await harness.stop()
    }

    @Test("at shutdown the running pass ends, and an Admin.Export that came during it still gets a pass of its own")
    func shutdownAnswersWaiters() async {
        let gate = DispatchSemaphore(value: 0)
        let harness = Harness(firstPassGate: gate)
        harness.exporter.configurationChanged()
        #expect(await harness.until { harness.count == 1 })
        harness.exporter.rostersChanged()
        let answer = LockedBox<ExportReport??>(nil)
        Task {
            let report = await harness.exporter.exportNow()
            answer.withLock { $0 = .some(report) }
        }
        #expect(await harness.until { harness.exporter.waitingCalls == 1 })
        harness.shutdown.fire()
        gate.signal()
        await harness.loop.value
        #expect(await harness.until { answer.withLock { $0 } != nil }, "the call was never answered")
        #expect(answer.withLock { $0 }??.directory == harness.directory)
        #expect(harness.count == 2, "the pass that ran, then one for the call (the roster change needs no other)")
    }
}
