/// When the next export pass runs, as a value: the exporter's whole decision, in the shape of ``RefreshQueue``.
///
/// - A trigger (a roster or a history changed, an icon is ready) waits ``debounce`` from the first trigger not yet
///   covered, so a burst of refreshes becomes one pass; later triggers of the burst do not push the pass back.
/// - An urgent trigger (a reload, `Admin.Export`) runs a pass at once, cutting a debounce short.
/// - A pass covers every trigger counted when it starts. Triggers that arrive while it runs are covered by exactly
///   one more pass after it, never by a queue of them; that pass's debounce starts when the running one ends.
/// - An `Admin.Export` call is answered by the first pass that *starts* after the call (that pass reads the rosters
///   when it starts, so it saw everything before the call), never by the one running when it came.
///
/// The value holds no clock, no lock and no continuation: every transition is handed the instant it happens at,
/// and a call waiting for a pass is only a number here (its continuation is booked under that number in the state's
/// ``ExportBook``, whose replies to the calls ``passEnded(now:)`` hands back the owner resumes).
struct ExportSchedule: Sendable, Equatable {
    /// What the exporter's loop should do next.
    enum Step: Sendable, Equatable {
        /// Start a pass now.
        case run
        /// Nothing runs before this instant (the end of a debounce), unless an urgent trigger comes first.
        case sleep(until: ContinuousClock.Instant)
        /// Nothing to do until a trigger: none is uncovered, or a pass is running (its end decides).
        case idle
    }

    /// An `Admin.Export` call waiting for a pass, numbered by whoever holds its continuation.
    typealias Call = Int

    /// How long a trigger waits before its pass, so the changes of a burst of refreshes share one.
    let debounce: Duration
    /// Triggers counted so far (wrapping: only equality with ``covered`` matters).
    private(set) var requested = 0
    /// How many of them the last pass to start covered.
    private(set) var covered = 0
    /// An uncovered trigger asked not to wait for the debounce.
    private(set) var urgent = false
    /// When the debounce of the uncovered triggers started: the first of them, or the end of the pass they arrived
    /// during. Nil while none is uncovered, or while they wait for the running pass to end.
    private(set) var debounceStart: ContinuousClock.Instant?
    /// Whether a pass is running.
    private(set) var running = false
    /// Calls waiting for the next pass to start.
    private(set) var waiting: [Call] = []
    /// Calls the running pass answers.
    private(set) var answering: [Call] = []

    /// A schedule that waits `debounce` after a trigger.
    init(debounce: Duration = .milliseconds(200)) {
        self.debounce = debounce
    }

    /// Whether a trigger is not yet covered by a pass that started.
    var isPending: Bool { requested != covered }

    /// How many `Admin.Export` calls wait for a pass, started or not.
    var callCount: Int { waiting.count + answering.count }

    // MARK: Transitions

    /// The export may be out of date as of `now`: a pass follows, after the debounce unless `urgent`.
    mutating func trigger(urgent: Bool, now: ContinuousClock.Instant) {
        if !isPending && !running { debounceStart = now }
        requested &+= 1
        if urgent { self.urgent = true }
    }

    /// `call` (an `Admin.Export`) waits for a pass that starts after `now`: an urgent trigger.
    mutating func call(_ call: Call, now: ContinuousClock.Instant) {
        waiting.append(call)
        trigger(urgent: true, now: now)
    }

    /// A pass starts at `now`: it covers every trigger counted so far and answers every call waiting.
    mutating func passStarted(now: ContinuousClock.Instant) {
        covered = requested
        urgent = false
        debounceStart = nil
        running = true
        answering += waiting
        waiting = []
    }

    /// The running pass ended at `now`. Returns the calls it answers; triggers that came while it ran start their
    /// debounce now.
    mutating func passEnded(now: ContinuousClock.Instant) -> [Call] {
        running = false
        if isPending { debounceStart = now }
        defer { answering = [] }
        return answering
    }

    // MARK: Reading

    /// What the loop does at `now`.
    func next(now: ContinuousClock.Instant) -> Step {
        guard !running, isPending else { return .idle }
        guard !urgent, let start = debounceStart else { return .run }
        let due = start + debounce
        return due <= now ? .run : .sleep(until: due)
    }
}
