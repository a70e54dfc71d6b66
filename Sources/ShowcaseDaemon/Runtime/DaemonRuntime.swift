import FoundationEssentials
import ShowcaseConfig
import ShowcaseCore
import Varlink

/// The daemon's composition root: every part made once, here, from the parts it uses, in the order they depend on
/// each other — the state and its owner, the rate limiter and upstream, the history, the refresher and the
/// scheduler, the exporter and its planner, the readers and commands the Varlink methods are built from, and the
/// methods themselves — and the state owner's observers wired in one place (``init(configuration:configPath:load:transport:clock:jitter:log:notifier:)``).
/// No part takes the whole runtime, and nothing is filled in after it is made.
///
/// The daemon (``Daemon/main(arguments:)``) serves it through the socket and its lifecycle services
/// (``lifecycleServices(server:)``); a one-shot run (`--once`) uses the same parts without the socket or any
/// service running. All time comes from the one injected ``ShowcaseClock``.
final class DaemonRuntime: Sendable {
    /// The daemon's state and its one owner.
    let state: StateOwner
    /// The daemon's one clock.
    let clock: any ShowcaseClock
    /// The daemon's log.
    let log: DaemonLog
    /// systemd's notification socket (disabled without `NOTIFY_SOCKET`).
    let notifier: SystemdNotifier
    /// The lookup service behind its rate limiter, with its counters.
    let upstream: Upstream
    /// The change history under `state.directory` (fixed at startup, like the cache).
    let history: HistoryRecorder
    /// How one edition is refreshed; the scheduler's worker runs it, and a one-shot run calls it directly.
    let refresher: Refresher
    /// The refresh worker and the callers waiting for a refresh.
    let scheduler: RefreshScheduler
    /// Keeps `export.directory` current (its loop runs as the ``ExportService``).
    let exporter: Exporter
    /// What an export pass writes, planned from the state now.
    let planner: ExportPlanner
    /// The roster a query gets now.
    let reader: RosterReader
    /// `Roster.Get`'s waits for a warming roster.
    let waits: RosterWaits
    /// `Roster.Changes` and the feeds' entries.
    let changes: ChangesReader
    /// Status, systemd's status line, health and metrics.
    let status: StatusReporter
    /// `Admin.Refresh`.
    let refresh: RefreshCommand
    /// `Admin.Reload` and SIGHUP.
    let reload: ReloadCommand
    /// The state seeded from the cache at startup.
    let seeder: CacheSeeder
    /// What a one-shot run reads of the state.
    let oneShot: OneShotRosters
    /// The moment graceful shutdown begins (a part of the state).
    let shutdown: ShutdownSignal
    /// The open `Roster.Watch` streams.
    let watches: WatchHub
    /// `io.showcase.Roster`.
    let roster: RosterMethods
    /// `io.showcase.Admin`.
    let admin: AdminMethods
    /// The Varlink calls counted by the server's dispatch (the metrics report them).
    let callCounts: VarlinkCallCounts
    private let varlink: VarlinkService

    /// Every part of a daemon over `configuration` (read from `configPath` by `load`, which a reload calls again),
    /// fetching through the transport `transport` makes for each configuration.
    init(
        configuration: Configuration, configPath: String,
        load: @escaping @Sendable () throws(ConfigErrors) -> Configuration,
        transport: @escaping @Sendable (Configuration) -> any LookupTransport, clock: any ShowcaseClock = SystemClock(),
        jitter: @escaping @Sendable () -> Double = { .random(in: 0...1) }, log: DaemonLog,
        notifier: SystemdNotifier
    ) {
        self.clock = clock
        self.log = log
        self.notifier = notifier
        let state = StateOwner(
            configuration,
            cache: FileCache(directory: URL(fileURLWithPath: configuration.cache.directory, isDirectory: true)),
            transport: transport, clock: clock, jitter: jitter)
        self.state = state
        shutdown = ShutdownSignal(state: state)
        let exporter = Exporter(state: state, log: log)
        self.exporter = exporter
        let limiter = RateLimiter(clock: clock, spacing: { state.config.requestSpacing })
        let upstream = Upstream(state: state, limiter: limiter, log: log)
        self.upstream = upstream
        let history = HistoryRecorder(directory: configuration.historyDirectory, state: state, log: log)
        self.history = history
        let refresher = Refresher(state: state, upstream: upstream, clock: clock, log: log, history: history)
        self.refresher = refresher

        let reader = RosterReader(state: state, clock: clock)
        self.reader = reader
        let changes = ChangesReader(state: state, history: history)
        self.changes = changes
        let planner = ExportPlanner(state: state, clock: clock, history: history, changes: changes)
        self.planner = planner
        let status = StatusReporter(
            state: state, clock: clock, upstream: upstream, history: history, exporter: exporter, reader: reader,
            configPath: configPath, exportStatus: { planner.exportStatus() })
        self.status = status
        let statusLine: @Sendable () -> String = { status.statusLine() }

        // After each refresh, systemd's STATUS= line is brought up to date ("3 storefronts: 2 fresh, 1 stale"):
        // the reporter is made before the scheduler, so its refresh closure holds it from the start.
        let announces = notifier.isEnabled
        let scheduler = RefreshScheduler(
            state: state, limiter: limiter,
            refresh: { edition in
                let outcome = await refresher.refresh(edition)
                if announces { notifier.status(statusLine()) }
                return outcome
            })
        self.scheduler = scheduler
        let waits = RosterWaits(state: state, clock: clock, scheduler: scheduler, reader: reader)
        self.waits = waits
        let refresh = RefreshCommand(
            state: state, clock: clock, scheduler: scheduler, limiter: limiter, notifier: notifier,
            statusLine: statusLine)
        self.refresh = refresh
        let reload = ReloadCommand(
            state: state, configuration: configuration, load: load, log: log, notifier: notifier,
            statusLine: statusLine)
        self.reload = reload
        seeder = CacheSeeder(state: state, log: log)
        oneShot = OneShotRosters(state: state, clock: clock, reader: reader)

        let watches = WatchHub(state: state, replies: WatchReplies(reader: reader))
        self.watches = watches
        roster = RosterMethods(
            state: state, reader: reader, waits: waits, changes: changes, status: status, watches: watches)
        let varlink = VarlinkService(
            vendor: "showcase", product: "showcased", version: ShowcaseVersion.string, url: "")
        self.varlink = varlink
        callCounts = varlink.callCounts
        admin = AdminMethods(
            state: state, status: status, reload: reload, refresh: refresh, exporter: exporter,
            callCounts: varlink.callCounts)

        // Every observer of the state, in one place.
        state.observe { observers in
            observers.queueChanged = { forgotten in scheduler.queueChanged(forgotten: forgotten) }
            // A cached roster found unusable only when first decoded (truncated, altered) is a miss, refetched soon.
            observers.unusable = { edition in
                log.warning(
                    "the cached \(edition) roster is unreadable (truncated, altered or foreign) or none of its apps "
                        + "passes lookup.artwork_hosts now; fetching it again",
                    fields: [.storefront: edition.storefront.code])
            }
            observers.exportScheduleChanged = { exporter.wake() }
            // The hub is the store's only watcher on behalf of the Watch streams.
            observers.rostersChanged.append { [weak watches] storefront in watches?.rostersChanged(storefront) }
        }
    }

    /// The Varlink interfaces the socket serves: `io.showcase.Roster` and `io.showcase.Admin` (whose `Metrics`
    /// reports ``callCounts``).
    func interfaces() throws(VarlinkError) -> VarlinkService {
        var interfaces = varlink
        try interfaces.add(roster.interface())
        try interfaces.add(admin.interface())
        return interfaces
    }

    /// The daemon's lifecycle services around `server` (serving ``interfaces()``), in start order: the scheduler,
    /// the cache decoding after READY, the export, the socket, the watchdog and the metrics textfile.
    func lifecycleServices(server: VarlinkServer) -> [any LifecycleService] {
        let (state, status, callCounts) = (state, status, callCounts)
        return [
            SchedulerService(scheduler: scheduler),
            CacheDecodingService(
                state: state, clock: clock, log: log, notifier: notifier, statusLine: { status.statusLine() }),
            ExportService(exporter: exporter, plan: { [planner] in planner.exportPlan() }),
            SocketService(
                server: server, roster: roster,
                gracePeriod: { state.config.configuration.lookup.timeout + .seconds(1) }),
            WatchdogService(
                notifier: notifier,
                probe: ServerProbe(server: server, timeout: (notifier.watchdogInterval ?? .seconds(20)) / 4),
                clock: clock),
            MetricsTextfileService(
                state: state, clock: clock, log: log,
                snapshot: { status.metrics(varlinkCalls: callCounts.snapshot()) }),
        ]
    }
}
