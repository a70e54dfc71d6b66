import Foundation
import Locking
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

/// A `Roster.Get` wait's three ends — its fetch settling, its timer running out, its caller hanging up — race; the
/// state decides which one wins, at one instant, by which transition takes the wait off the books.
@Suite("Settle waits: the one end that takes a wait off the books answers it, exactly once")
struct SettleWaitTests {
    let edition = StorefrontEdition(TestBed.storefront("us"))

    /// The three ends of a wait, as the transitions that deliver them.
    enum End: String, CaseIterable, CustomTestStringConvertible {
        case settled, timer, hangUp

        var testDescription: String { rawValue }

        /// Whether this end answers the caller.
        var delivers: Bool { self != .hangUp }

        func apply(_ state: inout DaemonState, _ id: SettleWait.ID, _ edition: StorefrontEdition) -> StateChange {
            switch self {
            case .settled: state.settleWaits(edition)
            case .timer: state.endWait(id, for: edition, deliver: true)
            case .hangUp: state.endWait(id, for: edition, deliver: false)
            }
        }
    }

    static func state() -> DaemonState {
        DaemonState(config: DaemonStateTests.snapshot(InProcessFixtures.configuration()), waitLimit: 8)
    }

    @Test(
        "whichever end comes first ends the wait, with an answer unless the caller hung up; the others find nothing",
        arguments: End.allCases)
    func firstEndWins(first: End) {
        var state = Self.state()
        let wait = SettleWait(id: SettleWait.ID(), timer: Task {}, answer: { _ in })
        #expect(state.admitWait(wait, for: edition).0 == true)
        let ended = first.apply(&state, wait.id, edition).endedWaits
        #expect(ended.map(\.wait.id) == [wait.id])
        #expect(ended.map(\.deliver) == [first.delivers])
        #expect(state.waits.count == 0)
        for later in End.allCases {
            #expect(later.apply(&state, wait.id, edition).endedWaits.isEmpty, "\(later) after \(first)")
        }
    }

    @Test("a timer or hang-up ends only its own wait: the edition's other waits stay booked for the fetch's end")
    func ownWaitOnly() {
        var state = Self.state()
        let waits = (0..<3).map { _ in SettleWait(id: SettleWait.ID(), timer: Task {}, answer: { _ in }) }
        for wait in waits { _ = state.admitWait(wait, for: edition) }
        #expect(state.endWait(waits[0].id, for: edition, deliver: true).endedWaits.map(\.wait.id) == [waits[0].id])
        #expect(state.endWait(waits[1].id, for: edition, deliver: false).endedWaits.map(\.wait.id) == [waits[1].id])
        #expect(state.waits.holds(waits[2].id, edition))
        let settled = state.settleWaits(edition).endedWaits
        #expect(settled.map(\.wait.id) == [waits[2].id] && settled.allSatisfy(\.deliver))
    }

    @Test(
        "through the owner, every order of the three ends answers once and cancels the timer at the first end",
        arguments: End.allCases)
    func ownerAnswersOnce(first: End) {
        let clock = ManualClock()
        let owner = StateOwnerTests.owner()
        let answers = LockedBox<[Bool]>([])
        let id = SettleWait.ID()
        let edition = self.edition
        let timer = owner.update { state, _ in
            // Made in the booking update, as RosterWaits does: a sleep on the manual clock, which never moves here.
            let timer = Task {
                do { try await clock.sleep(for: .seconds(5)) } catch { return }
                owner.update { state, _ in state.endWait(id, for: edition, deliver: true) }
            }
            let wait = SettleWait(id: id, timer: timer, answer: { deliver in answers.withLock { $0.append(deliver) } })
            let (first, change) = state.admitWait(wait, for: edition)
            return ((timer, first), change)
        }
        #expect(timer.1 == true)
        #expect(!timer.0.isCancelled)
        owner.update { state, _ in first.apply(&state, id, edition) }
        #expect(answers.withLock { $0 } == [first.delivers])
        #expect(timer.0.isCancelled)
        for later in End.allCases { owner.update { state, _ in later.apply(&state, id, edition) } }
        #expect(answers.withLock { $0 } == [first.delivers])
        #expect(owner.read { $0.waits.count } == 0)
    }

    @Test(
        "a wait refused by a full book ends at once without an answer (its caller answers itself), its timer cancelled")
    func refusedWait() {
        let owner = StateOwnerTests.owner()
        let answers = LockedBox<[Bool]>([])
        let waits = (0..<4097).map { _ in
            SettleWait(
                id: SettleWait.ID(), timer: Task {}, answer: { deliver in answers.withLock { $0.append(deliver) } })
        }
        let timer = Task<Void, Never> { try? await ManualClock().sleep(for: .seconds(5)) }
        let refusedAnswers = LockedBox<[Bool]>([])
        let refused = SettleWait(
            id: SettleWait.ID(), timer: timer, answer: { deliver in refusedAnswers.withLock { $0.append(deliver) } })
        for wait in waits.prefix(4096) { owner.update { state, _ in state.admitWait(wait, for: self.edition) } }
        #expect(owner.update { state, _ in state.admitWait(refused, for: self.edition) } == nil)
        #expect(timer.isCancelled)
        #expect(refusedAnswers.withLock { $0 } == [false])
        #expect(answers.withLock { $0 }.isEmpty)
        #expect(owner.read { $0.waits.count } == 4096)
    }
}
