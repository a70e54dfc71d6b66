import FoundationEssentials
import ShowcaseCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The in-place progress of a one-shot run on stderr (SPEC §17): ShowcaseCore's ``ProgressLine`` shown by its
/// ``TerminalProgress``, updated after each roster and once a second while the run waits. Built disabled — it
/// writes nothing at all — when stderr is not a terminal or under `--json`.
///
/// No lock: what the line shows — the terminal and how many rosters are done — lives in the local variables of one
/// task, ``draw(clock:)``, and every other caller only sends it an event through an `AsyncStream` (a roster
/// finished, a second passed, the run ended). Events flow one way and nobody waits for an answer, so there is no
/// shared state to guard and no call to serialize — a pipeline with one reader, not an actor in disguise.
struct OneShotProgress: Sendable {
    /// What the drawing task hears.
    private enum Event: Sendable {
        case finished(Int)
        case tick
    }

    private let isEnabled: Bool
    private let total: Int
    private let requestsPerMinute: Int
    private let requestsLeft: @Sendable (Int) -> Int
    private let nextRequestIn: @Sendable () -> Duration?
    private let events: AsyncStream<Event>
    private let sink: AsyncStream<Event>.Continuation

    /// Progress over `total` rosters at `requestsPerMinute`; `requestsLeft` answers how many upstream requests
    /// remain when a number of rosters are done, `nextRequestIn` how long until the rate limiter lets one go.
    init(
        isEnabled: Bool, total: Int, requestsPerMinute: Int, requestsLeft: @escaping @Sendable (Int) -> Int,
        nextRequestIn: @escaping @Sendable () -> Duration?
    ) {
        self.isEnabled = isEnabled
        self.total = total
        self.requestsPerMinute = requestsPerMinute
        self.requestsLeft = requestsLeft
        self.nextRequestIn = nextRequestIn
        (events, sink) = AsyncStream.makeStream(of: Event.self)
    }

    /// Whether stderr gets progress (a terminal, and no `--json`).
    static func isWanted(json: Bool) -> Bool { !json && isatty(STDERR_FILENO) == 1 }

    /// `done` rosters are finished: the line shows it.
    func finished(_ done: Int) { sink.yield(.finished(done)) }

    /// Ends the line: ``draw(clock:)`` clears it and returns.
    func finish() { sink.finish() }

    /// Shows the line now, after each roster and once a second on `clock`, until ``finish()``; then clears it
    /// (before the report is printed). Run once: it is the stream's one reader.
    func draw(clock: any ShowcaseClock) async {
        var terminal = TerminalProgress(isEnabled: isEnabled) { text in StandardStream.error.write(text) }
        var done = 0
        let sink = self.sink
        let ticks = Task {
            while !Task.isCancelled {
                sink.yield(.tick)
                do { try await clock.sleep(for: .seconds(1)) } catch { return }
            }
        }
        for await event in events {
            if case .finished(let count) = event { done = count }
            terminal.update(
                ProgressLine(
                    done: done, total: total, nextRequestIn: nextRequestIn(), requestsLeft: requestsLeft(done),
                    requestsPerMinute: requestsPerMinute))
        }
        ticks.cancel()
        terminal.finish()
    }
}
