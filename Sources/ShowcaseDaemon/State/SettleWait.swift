import Locking
import ShowcaseCore

/// One `Roster.Get` waiting for a warming roster (its `waitMs`): answered once, by whichever comes first of the
/// refresh finishing, the wait running out, or the caller's connection closing (then nothing is sent).
///
/// Whichever ends it cancels the timer at once, so an abandoned or answered wait keeps no task alive; a client
/// cannot pile up sleeping timers by sending calls and hanging up.
final class SettleWait: Sendable {
    private struct State {
        var finished = false
        var timer: Task<Void, Never>?
    }

    private let state = Lock(State())
    private let onFinish: @Sendable (_ wait: SettleWait, _ deliver: Bool) -> Void

    /// A wait whose end runs `onFinish` exactly once, with itself; `deliver` is false when the caller is gone.
    init(onFinish: @escaping @Sendable (_ wait: SettleWait, _ deliver: Bool) -> Void) {
        self.onFinish = onFinish
    }

    /// Starts the timer: after `wait`, the wait ends with an answer. Not started when it already ended.
    func startTimer(_ wait: Duration, clock: any ShowcaseClock) {
        state.withLock { state in
            guard !state.finished else { return }
            state.timer = Task { [self] in
                do { try await clock.sleep(for: wait) } catch { return }
                finish(deliver: true)
            }
        }
    }

    /// Ends the wait (once): cancels the timer and runs `onFinish`.
    func finish(deliver: Bool) {
        let timer: Task<Void, Never>?? = state.withLock { state in
            guard !state.finished else { return .none }
            state.finished = true
            defer { state.timer = nil }
            return .some(state.timer)
        }
        guard let timer else { return }
        timer?.cancel()
        onFinish(self, deliver)
    }
}
