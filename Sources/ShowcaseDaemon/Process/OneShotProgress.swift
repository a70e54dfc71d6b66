import FoundationEssentials
import Locking
import ShowcaseCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The in-place progress of a one-shot run on stderr (SPEC §17): ShowcaseCore's ``ProgressLine`` shown by its
/// ``TerminalProgress``, updated after each roster and once a second while the run waits. Built disabled — it
/// writes nothing at all — when stderr is not a terminal or under `--json`.
final class OneShotProgress: Sendable {
    private struct State {
        var terminal: TerminalProgress
        var done = 0
    }

    private let state: Lock<State>
    private let total: Int
    private let requestsPerMinute: Int
    private let requestsLeft: @Sendable (Int) -> Int
    private let nextRequestIn: @Sendable () -> Duration?

    /// Progress over `total` rosters at `requestsPerMinute`; `requestsLeft` answers how many upstream requests
    /// remain when a number of rosters are done, `nextRequestIn` how long until the rate limiter lets one go.
    init(
        isEnabled: Bool, total: Int, requestsPerMinute: Int, requestsLeft: @escaping @Sendable (Int) -> Int,
        nextRequestIn: @escaping @Sendable () -> Duration?
    ) {
        state = Lock(
            State(
                terminal: TerminalProgress(isEnabled: isEnabled) { text in
                    StandardStream.error.write(text)
                }))
        self.total = total
        self.requestsPerMinute = requestsPerMinute
        self.requestsLeft = requestsLeft
        self.nextRequestIn = nextRequestIn
    }

    /// Whether stderr gets progress (a terminal, and no `--json`).
    static func isWanted(json: Bool) -> Bool { !json && isatty(STDERR_FILENO) == 1 }

    /// `done` rosters are finished: show it.
    func finished(_ done: Int) {
        state.withLock { $0.done = done }
        show()
    }

    /// Shows the line as of now.
    func show() {
        let (total, rate, left, next) = (total, requestsPerMinute, requestsLeft, nextRequestIn)
        state.withLock { state in
            let line = ProgressLine(
                done: state.done, total: total, nextRequestIn: next(), requestsLeft: left(state.done),
                requestsPerMinute: rate)
            state.terminal.update(line)
        }
    }

    /// Clears the line before the report is printed.
    func finish() { state.withLock { $0.terminal.finish() } }
}
