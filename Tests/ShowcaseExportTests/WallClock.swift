import Foundation
import ShowcaseCore

/// A wall clock set by the test: an ``ExportMemory`` judges whether a file has settled by its `now`, so a test moves
/// it past the files' ctimes instead of sleeping. Its instants and sleeps are the system's (the writer uses neither).
final class WallClock: ShowcaseClock, @unchecked Sendable {
    private let lock = NSLock()
    private var wall: Date

    init(now: Date = Date()) { wall = now }

    var now: Date { lock.withLock { wall } }
    var instant: ContinuousClock.Instant { ContinuousClock.now }

    func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }

    /// Sets the time to `date`.
    func set(_ date: Date) { lock.withLock { wall = date } }

    /// Moves the time a second past the real one: every file written so far has settled by then.
    func settleEverything() { set(Date().addingTimeInterval(1)) }
}
