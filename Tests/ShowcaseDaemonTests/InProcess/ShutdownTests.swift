import Foundation
import Locking
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

/// Graceful shutdown as a part of the state: whether it has begun, and who waits for it, changed by two transitions
/// whose change hands the waiters to resume to the owner.
@Suite("Shutdown: begun once, every waiter resumed once, by the state's transitions")
struct ShutdownTests {
    @Test("a waiter booked before shutdown is handed back when it begins; beginning again hands back none")
    func beginResumesBooked() async {
        var state = SettleWaitTests.state()
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            #expect(state.awaitShutdown(waiter).resumed.isEmpty)
            #expect(!state.shutdown.begun)
            let change = state.beginShutdown()
            #expect(state.shutdown.begun)
            #expect(change.resumed.count == 1)
            #expect(state.beginShutdown().resumed.isEmpty)
            // Resumed here, once, whatever the transitions handed back, so a failure cannot hang the test.
            waiter.resume()
        }
    }

    @Test("a waiter that comes after shutdown began is handed back at once, and not booked")
    func waitAfterBegin() async {
        var state = SettleWaitTests.state()
        #expect(state.beginShutdown().resumed.isEmpty)
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let change = state.awaitShutdown(waiter)
            #expect(change.resumed.count == 1)
            // Booked, it would be handed back a second time here.
            #expect(state.beginShutdown().resumed.isEmpty)
            waiter.resume()
        }
    }

    @Test("the signal over the owner: waiters before and after the fire go on, and firing twice is harmless")
    func signalThroughOwner() async {
        let owner = StateOwnerTests.owner()
        let signal = ShutdownSignal(state: owner)
        let went = LockedBox(0)
        let waiting = (0..<3).map { _ in
            Task {
                await signal.wait()
                went.withLock { $0 += 1 }
            }
        }
        #expect(!signal.isFired)
        signal.fire()
        signal.fire()
        #expect(signal.isFired)
        #expect(owner.read { $0.shutdown.begun })
        for task in waiting { await task.value }
        await signal.wait()
        #expect(went.withLock { $0 } == 3)
    }
}
