import FoundationEssentials
import Locking
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport

/// Keeps `export.directory` current: runs export passes (``ExportWriter``) one at a time, after a roster changes,
/// after a reload, and for `Admin.Export`, and remembers the last one for Status.
///
/// Triggers only mark work as wanted; one loop (``run(until:plan:)``, the ``ExportService``) turns them into
/// passes. A roster change waits ``debounce`` first, so a burst of refreshes becomes one pass; a reload or an
/// `Admin.Export` starts a pass as soon as the one in progress, if any, ends. Triggers that arrive during a pass
/// are covered by one more pass after it, never by a queue of them. A pass reads the rosters when it starts, so
/// `Admin.Export` is answered by a pass that saw everything before the call.
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

    /// A finished pass, for Status.
    struct Pass: Sendable {
        /// What it wrote, kept and removed, and what failed.
        var report: ExportReport
        /// When it ended.
        var finishedAt: Date
    }

    struct State {
        /// Counts triggers; the loop remembers how many its last pass covered.
        var requested = 0
        /// A trigger that should not wait for ``debounce`` (a reload, `Admin.Export`).
        var urgent = false
        /// `Admin.Export` calls waiting for the next pass.
        var waiters: [CheckedContinuation<ExportReport?, Never>] = []
        var last: Pass?
        /// What the passes know of the files they checked, so the next one need not read them back; it judges
        /// whether a file has settled by the exporter's clock.
        var memory: ExportMemory
        /// The icon index as the last pass left it, and the `state.directory` it was read from.
        var iconIndex: (directory: String, index: IconIndex)?
        /// Each host's settings as the last pass saw them, and the epoch they got (``settingsEpoch(of:in:)``).
        var hostSettings: [String: (settings: HostExportSettings, epoch: Int)] = [:]
        /// The last epoch handed out.
        var lastEpoch = 0
    }

    /// What of the configuration shapes a host's exported apps besides its rosters.
    struct HostExportSettings: Equatable {
        var host: HostConfiguration
        var attribution: Attribution
        var artworkHosts: [URLPrefix]
    }

    /// How long a roster change waits before its pass, so the changes of a burst of refreshes share one.
    let debounce: Duration
    /// Downloads the icons documents lack (`export.icons`), in the background; each one ready triggers a pass.
    let icons: IconFetcher
    let clock: any ShowcaseClock
    let log: DaemonLog
    let state: Lock<State>
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    /// An exporter that waits `debounce` after a roster change, times passes by `clock`, logs to `log` and fetches
    /// icons over `images`.
    init(
        clock: any ShowcaseClock, log: DaemonLog, debounce: Duration = .milliseconds(200),
        images: any ImageTransport = CurlImageTransport(version: ShowcaseVersion.string)
    ) {
        self.clock = clock
        self.log = log
        self.debounce = debounce
        state = Lock(State(memory: ExportMemory(clock: clock)))
        // One buffered wake-up is enough: the loop reads the state, not the elements.
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let ready = LockedBox<(@Sendable () -> Void)?>(nil)
        icons = IconFetcher(transport: images, log: log) { ready.withLock { $0 }?() }
        // An icon is ready: the next pass (after the debounce, like a roster change) stores and lists it.
        ready.withLock { $0 = { [weak self] in self?.rostersChanged() } }
    }

    /// `showcase_icon_requests_total` as of now.
    var iconRequestCounts: IconRequestCounts {
        let counters = icons.counters
        return IconRequestCounts(
            ok: counters.ok, refused: counters.refused, failed: counters.failed, reasons: counters.reasons)
    }

    /// A roster changed (a new revision, a failure, a cache file decoded): export after ``debounce``.
    func rostersChanged() { trigger(urgent: false) }

    /// The configuration changed (a reload: overlay, attribution, hosts, storefronts, export settings): export
    /// as soon as the pass in progress, if any, ends.
    func configurationChanged() { trigger(urgent: true) }

    /// Runs a pass that starts after this call and returns its report; nil when no export is configured.
    func exportNow() async -> ExportReport? {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                state.waiters.append(continuation)
                state.requested &+= 1
                state.urgent = true
            }
            wake.yield()
        }
    }

    /// Runs one pass over `plan` now, without the loop (a one-shot run writes the export once, after its
    /// refreshes), logged and remembered like every pass; nil when no export is configured.
    func passNow(_ plan: @escaping @Sendable () -> Plan?) async -> ExportReport? { await pass(plan) }

    /// The last finished pass, if any.
    var lastPass: Pass? { state.withLock { $0.last } }

    /// How many `Admin.Export` calls wait for a pass now.
    var waitingCalls: Int { state.withLock { $0.waiters.count } }

    private func trigger(urgent: Bool) {
        state.withLock { state in
            state.requested &+= 1
            if urgent { state.urgent = true }
        }
        wake.yield()
    }

    /// Turns triggers into passes until `shutdown`; a pass in progress then finishes, and `Admin.Export` calls
    /// still waiting get one last pass. `plan` reads the current settings and rosters (nil: no export configured).
    func run(until shutdown: ShutdownSignal, plan: @escaping @Sendable () -> Plan?) async {
        await shutdown.cancelling { await self.loop(plan: plan) }
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        guard !waiters.isEmpty else { return }
        let report = await pass(plan)
        for waiter in waiters { waiter.resume(returning: report) }
    }

    private func loop(plan: @escaping @Sendable () -> Plan?) async {
        var covered = 0
        for await _ in wakeups {
            let (requested, urgent) = state.withLock { ($0.requested, $0.urgent) }
            if requested == covered { continue }
            if !urgent {
                do { try await clock.sleep(for: debounce) } catch { return }
            }
            let (waiters, upTo) = state.withLock { state in
                defer {
                    state.waiters = []
                    state.urgent = false
                }
                return (state.waiters, state.requested)
            }
            covered = upTo
            let report = await pass(plan)
            for waiter in waiters { waiter.resume(returning: report) }
        }
    }

    /// A number that stays the same while `host`'s settings in `configuration` that shape its exported apps (its
    /// overlay, attribution, the artwork rules) stay the same, and is new whenever they change, across reloads: a
    /// part of each of its rosters' ``ExportRoster/fingerprint``, so a reload that changes one host's tagline
    /// re-renders that host's files only.
    func settingsEpoch(of host: HostConfiguration, in configuration: Configuration) -> Int {
        let settings = HostExportSettings(
            host: host, attribution: configuration.attribution, artworkHosts: configuration.lookup.artworkHosts)
        return state.withLock { state in
            if let known = state.hostSettings[host.bundleID], known.settings == settings { return known.epoch }
            state.lastEpoch += 1
            state.hostSettings[host.bundleID] = (settings, state.lastEpoch)
            return state.lastEpoch
        }
    }

    /// One pass over the rosters `plan` gives now; nil when no export is configured.
    private func pass(_ plan: @escaping @Sendable () -> Plan?) async -> ExportReport? {
        let clock = self.clock
        let memory = state.withLock { $0.memory }
        let outcome: (Pass, ExportMemory)? = await offload(qos: .utility) {
            guard let plan = plan() else { return nil }
            let writer = ExportWriter(
                directory: plan.settings.directory, gzip: plan.settings.gzip, renderers: plan.renderers,
                hostRenderers: plan.hostRenderers, publicURL: plan.settings.publicURL, site: plan.site)
            var memory = memory
            let report = self.export(plan, with: writer, remembering: &memory)
            return (Pass(report: report, finishedAt: clock.now), memory)
        }
        guard let (finished, memory) = outcome else { return nil }
        state.withLock { $0.memory = memory }
        let previous = state.withLock { state in
            defer { state.last = finished }
            return state.last
        }
        record(finished.report, after: previous?.report)
        return finished.report
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
