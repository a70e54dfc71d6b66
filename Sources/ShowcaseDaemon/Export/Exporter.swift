import FoundationEssentials
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport

/// Keeps `export.directory` current: runs export passes (``ExportWriter``) one at a time, after a roster changes,
/// after a reload, and for `Admin.Export`.
///
/// When a pass runs is not decided here: the ``ExportSchedule`` in the daemon's state (``DaemonState/exportSchedule``)
/// decides — a roster change waits a debounce so a burst of refreshes becomes one pass, a reload or an `Admin.Export`
/// runs at once, triggers during a pass are covered by one more pass after it, and `Admin.Export` is answered by a
/// pass that starts after the call. The exporter carries that out: its loop (``run(until:plan:)``, the
/// ``ExportService``) asks the schedule for the next step and runs the pass, sleeps on the injected clock, or waits
/// until the owner tells it the schedule changed (``wake()``).
///
/// It holds no state of its own, only what it acts with (the owner, the clock, the log, the icon fetcher, its
/// wake-ups): what passes remember is the state's ``DaemonState/exportBook``. A pass starts from a copy of what the
/// last one carried (the export memory, the icon index), works on it outside the lock, and hands the new one back
/// with its report in the transition that ends it, which also returns the replies of the `Admin.Export` calls it
/// answers for the owner to resume. The host settings epochs in each roster's fingerprint are the state's too, set by
/// the reload that changes the configuration.
///
/// Passes run off the cooperative pool (they read and write files); their failures (full disk, permissions) are
/// values in the report: logged as one summary with the first few errors, kept for Status, never thrown.
final class Exporter: Sendable {
    /// What one pass exports: the settings read with the rosters, and every configured roster.
    struct Plan: Sendable {
        /// `export.directory` and `export.gzip`.
        var settings: ExportSettings
        /// Every configured host in every configured storefront.
        var rosters: [ExportRoster]
        /// What is rendered beside each document (`export.html`'s fragments, `export.feed`'s Atom feed).
        var renderers: [any DocumentRenderer] = []
        /// What is rendered once per host (`export.html`'s Smart App Banner).
        var hostRenderers: [any HostFileRenderer] = []
        /// `export.site`'s pages, written after the documents; nil without a site.
        var site: SiteWriter?
        /// `state.directory`, where the icon index lives.
        var stateDirectory: String = ""
        /// What the icon fetcher may do under this configuration; nil without `export.icons`.
        var iconFetch: IconFetcher.Settings?
        /// Whether the pass asks the fetcher for the icons its documents lack, for a later pass (the daemon); false
        /// for a one-shot run, which asked before its one pass (``mirrorIcons(for:until:)``) and exits after it.
        var fetchesLackingIcons = true
    }

    /// The daemon's state, whose ``DaemonState/exportSchedule`` says when a pass runs and whose
    /// ``DaemonState/exportBook`` holds what passes remember.
    let owner: StateOwner
    /// Downloads the icons documents lack (`export.icons`), in the background, as the state's ``IconBook`` decides;
    /// each one ready asks the state for a pass.
    let icons: IconFetcher
    let clock: any ShowcaseClock
    let log: DaemonLog
    private let wakeups: AsyncStream<Void>
    private let wakeup: AsyncStream<Void>.Continuation

    /// An exporter whose passes follow `owner`'s export schedule and its clock, logging to `log` and fetching icons
    /// over `images`. Its loop hears of schedule changes through ``wake()``, which whoever wires the owner's
    /// observers connects.
    init(
        state owner: StateOwner, log: DaemonLog,
        images: any ImageTransport = CurlImageTransport(version: ShowcaseVersion.string)
    ) {
        self.owner = owner
        clock = owner.clock
        self.log = log
        // One buffered wake-up is enough: the loop reads the schedule, not the elements.
        (wakeups, wakeup) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // An icon ready asks the state for the next pass (after the debounce, like a roster change), which stores
        // and lists it.
        icons = IconFetcher(state: owner, transport: images, log: log)
    }

    /// `showcase_icon_requests_total` as of now.
    var iconRequestCounts: IconRequestCounts {
        let counters = icons.counters
        return IconRequestCounts(
            ok: counters.ok, refused: counters.refused, failed: counters.failed, reasons: counters.reasons)
    }

    /// A roster changed: export after the schedule's debounce.
    func rostersChanged() { trigger(.rosters) }

    /// The configuration changed (the daemon starts): export as soon as the pass in progress, if any, ends.
    func configurationChanged() { trigger(.configuration) }

    /// The export schedule changed: the loop looks again (cutting a sleep short).
    func wake() { wakeup.yield() }

    /// Runs a pass that starts after this call and returns its report; nil when no export is configured.
    func exportNow() async -> ExportReport? {
        await withCheckedContinuation { continuation in
            let now = clock.instant
            owner.update { state, _ in state.exportCalled(continuation, at: now) }
        }
    }

    /// Runs one pass over `plan` now, without the loop (a one-shot run writes the export once, after its
    /// refreshes), logged and remembered like every pass; nil when no export is configured.
    func passNow(_ plan: @escaping @Sendable () -> Plan?) async -> ExportReport? {
        guard let outcome = await pass(plan, from: owner.read({ $0.exportBook.carried })) else { return nil }
        owner.update { state, _ in state.exportPassed(outcome) }
        return outcome.pass.report
    }

    /// The last finished pass, if any.
    var lastPass: ExportBook.Pass? { owner.read { $0.exportBook.last } }

    /// How many `Admin.Export` calls wait for a pass now.
    var waitingCalls: Int { owner.read { $0.exportSchedule.callCount } }

    private func trigger(_ reason: StateChange.ExportReason) {
        let now = clock.instant
        owner.update { state, _ in state.exportWanted(reason, at: now) }
    }

    /// Carries out the export schedule until `shutdown`; a pass in progress then finishes, and `Admin.Export` calls
    /// still waiting get one last pass. `plan` reads the current settings and rosters (nil: no export configured).
    func run(until shutdown: ShutdownSignal, plan: @escaping @Sendable () -> Plan?) async {
        await shutdown.cancelling { await self.loop(until: shutdown, plan: plan) }
        guard owner.read({ $0.exportSchedule.callCount > 0 }) else { return }
        await scheduledPass(plan)
    }

    /// Runs what the schedule says, step by step, until `shutdown` (checked after each pass, so a call that came
    /// during the last one is answered by ``run(until:plan:)``'s pass) or until the task is cancelled.
    private func loop(until shutdown: ShutdownSignal, plan: @escaping @Sendable () -> Plan?) async {
        var wakeups = self.wakeups.makeAsyncIterator()
        while !Task.isCancelled && !shutdown.isFired {
            switch owner.read({ $0.exportSchedule.next(now: clock.instant) }) {
            case .run:
                await scheduledPass(plan)
            case .idle:
                // Nil: the task was cancelled (the stream ends with it).
                guard await wakeups.next() != nil else { return }
            case .sleep(let deadline):
                // The end of the debounce wakes the loop like any change to the schedule; a change before it (an
                // urgent trigger) ends the sleep early.
                let (clock, wakeup) = (self.clock, self.wakeup)
                let timer = Task {
                    do { try await clock.sleep(until: deadline) } catch { return }
                    wakeup.yield()
                }
                let woken: Void? = await wakeups.next()
                timer.cancel()
                guard woken != nil else { return }
            }
        }
    }

    /// One pass as the schedule sees it: started (covering every trigger so far and taking the calls waiting) from
    /// what the last pass carried, run, and ended with what it carries to the next; the owner resumes the calls it
    /// answers with its report.
    private func scheduledPass(_ plan: @escaping @Sendable () -> Plan?) async {
        let started = clock.instant
        let carried = owner.update { state, _ in state.exportStarted(at: started) }
        let outcome = await pass(plan, from: carried)
        let ended = clock.instant
        owner.update { state, _ in state.exportEnded(outcome, at: ended) }
    }

    /// One pass over the rosters `plan` gives now, starting from `carried`, logged; nil when no export is
    /// configured.
    private func pass(_ plan: @escaping @Sendable () -> Plan?, from carried: ExportBook.Carried) async
        -> ExportBook.Outcome?
    {
        let clock = self.clock
        let outcome: ExportBook.Outcome? = await offload(qos: .utility) {
            guard let plan = plan() else { return nil }
            let writer = ExportWriter(
                directory: plan.settings.directory, gzip: plan.settings.gzip, renderers: plan.renderers,
                hostRenderers: plan.hostRenderers, publicURL: plan.settings.publicURL, site: plan.site)
            var carried = carried
            var memory = carried.memory ?? ExportMemory(clock: clock)
            let report = self.export(plan, with: writer, remembering: &memory, icons: &carried.icons)
            carried.memory = memory
            return ExportBook.Outcome(pass: ExportBook.Pass(report: report, finishedAt: clock.now), carried: carried)
        }
        guard let outcome else { return nil }
        // Passes run one at a time: the last one the state knows is the one before this.
        record(outcome.pass.report, after: owner.read { $0.exportBook.last?.report })
        return outcome
    }

    /// Logs a pass: a line when it changed something, the summary with the first few errors when it failed (not a
    /// line per file: a full disk fails hundreds), and a notice when the export recovers.
    private func record(_ report: ExportReport, after previous: ExportReport?) {
        guard report.succeeded else {
            let shown = report.errors.prefix(Self.errorsLogged).map(\.message).joined(separator: "; ")
            let more = report.errors.count - Self.errorsLogged
            log.error("\(report.summary): \(shown)" + (more > 0 ? "; and \(more) more" : ""))
            return
        }
        if let previous, !previous.succeeded {
            log.notice("\(report.summary); the export is current again")
        } else if report.written + report.removed > 0 {
            log.info(
                "\(report.summary); \(report.rostersRendered) \(report.rostersRendered == 1 ? "roster" : "rosters") "
                    + "rendered, \(report.rostersReused) reused"
                    + (report.pagesRendered + report.pagesReused > 0
                        ? "; \(report.pagesRendered) site pages rendered, \(report.pagesReused) reused" : ""))
        }
    }

    /// How many of a failed pass's errors the log shows.
    static let errorsLogged = 3
}
