import Foundation
import ShowcaseCore

/// A clock that moves only when a test moves it: sleepers wake when ``advance(by:)`` passes their deadline.
final class ManualClock: ShowcaseClock, @unchecked Sendable {
    private let lock = NSLock()
    private var wall: Date
    private var current: ContinuousClock.Instant
    private var sleepers:
        [(id: Int, deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID = 0

    init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        wall = now
        current = ContinuousClock.now
    }

    var now: Date { lock.withLock { wall } }
    var instant: ContinuousClock.Instant { lock.withLock { current } }

    /// How many tasks sleep on this clock now.
    var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Moves both clocks forward by `duration` and wakes every sleeper whose deadline has passed.
    func advance(by duration: Duration) {
        let due = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            wall = wall.addingTimeInterval(duration.seconds)
            current = current + duration
            let woken = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return woken.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = lock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = lock.withLock { () -> Bool in
                    if deadline <= current || Task.isCancelled { return true }
                    sleepers.append((id, deadline, continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }
}
