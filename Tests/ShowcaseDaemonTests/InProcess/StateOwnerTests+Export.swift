import Foundation
import Locking
import ShowcaseExport
import Testing

@testable import ShowcaseDaemon

/// What the owner carries out for the export: the replies a pass's end returns.
extension StateOwnerTests {
    @Test("the update that ends a pass resumes the Admin.Export calls it answers with its report, once out of the lock")
    func exportRepliesResumed() async {
        let owner = Self.owner()
        let answer = LockedBox<ExportReport??>(nil)
        Task {
            let report = await withCheckedContinuation { continuation in
                owner.update { state, _ in state.exportCalled(continuation, at: owner.clock.instant) }
            }
            answer.withLock { $0 = .some(report) }
        }
        func until(_ condition: () -> Bool) async -> Bool {
            for _ in 0..<2000 where !condition() { try? await Task.sleep(for: .milliseconds(5)) }
            return condition()
        }
        #expect(await until { owner.read { $0.exportSchedule.callCount } == 1 })
        _ = owner.update { state, _ in state.exportStarted(at: owner.clock.instant) }
        let report = ExportReport(directory: "/in-process/export", written: 3)
        let outcome = ExportBook.Outcome(
            pass: ExportBook.Pass(report: report, finishedAt: owner.clock.now), carried: ExportBook.Carried())
        owner.update { state, _ in state.exportEnded(outcome, at: owner.clock.instant) }
        #expect(await until { answer.withLock { $0 } != nil }, "the call was never resumed")
        #expect(answer.withLock { $0 } == .some(report))
        #expect(owner.read { $0.exportBook.last?.report } == report)
    }
}
