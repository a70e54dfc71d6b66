import FoundationEssentials
@preconcurrency import Glibc
import ShowcaseConfig
import ShowcaseCore

extension Daemon {
    /// `showcased --once` (SPEC §17): the daemon's parts (``DaemonRuntime``) used another way — the same
    /// configuration, cache, ``Refresher``, rate limiter, export planner and writer, but no socket, no scheduler loop
    /// and no services running until a signal. The cache is read, every edition that is not fresh is refreshed
    /// once (``CatchUpPass``, bounded by `--max-wait`), the icons its documents reference are mirrored within the
    /// same bound (``Exporter/mirrorIcons(for:until:)``), the export is written once, the report is printed, and the
    /// exit status is the report's (an icon refused or not fetched is counted, never a failure of the run). The
    /// caller holds the cache directory's ``CacheLock`` throughout.
    ///
    /// A second run inside `refresh.interval` finds every roster fresh, makes no request, and its export pass
    /// finds every document as it would write it, so nothing in the cache or the export is rewritten; the icon index
    /// in `state.directory` names every icon it mirrored, so none is fetched again.
    ///
    /// SIGTERM or SIGINT (`signals`) stops the waiting as `--max-wait` does: the refresh in progress finishes
    /// (its cache write included), icons still downloading are left, the export is written from what there is, and
    /// the report says what is left.
    static func runOnce(
        _ options: DaemonOptions, configuration: Configuration, configPath: String,
        load: @escaping @Sendable () throws(ConfigErrors) -> Configuration, clock: any ShowcaseClock, log: DaemonLog,
        signals: AsyncStream<Int32>
    ) async -> Int32 {
        // No NOTIFY_SOCKET: a one-shot run is not a service systemd waits on.
        let runtime = DaemonRuntime(
            configuration: configuration, configPath: configPath, load: load,
            transport: { transport(for: $0, clock: clock) }, clock: clock, log: log,
            notifier: SystemdNotifier(environment: [:], log: log))
        _ = runtime.seeder.loadCache()
        let (state, rosters, planner, exporter) = (runtime.state, runtime.oneShot, runtime.planner, runtime.exporter)
        let due = rosters.editionsDue()
        let limiter = runtime.upstream.limiter
        let hosts = configuration.hosts.map(\.bundleID)
        let rate = configuration.lookup.rateLimit
        let progress = OneShotProgress(
            isEnabled: !due.isEmpty && OneShotProgress.isWanted(json: options.json), total: due.count,
            requestsPerMinute: rate.requestsPerMinute(rounded: .down),
            requestsLeft: { done in
                (due.count - done) + hosts.filter { state.identity($0) == nil }.count
            },
            nextRequestIn: {
                let wait = limiter.availableAt - clock.instant
                return wait > .zero ? wait : nil
            })
        let drawing = Task { await progress.draw(clock: clock) }
        let deadline = clock.instant + options.maxWait
        let pass = CatchUpPass(editions: due, deadline: deadline)
        // The refreshes, then the icons the export's documents reference (SPEC §17), both inside `--max-wait`:
        // the one pass below then writes documents that already list them.
        let work = Task { () -> (CatchUpPass.Result, Exporter.Plan?, Set<IconKey>?) in
            let result = await pass.run(
                clock: clock, limiter: limiter, isDue: { rosters.isDue($0) },
                refresh: { [refresher = runtime.refresher] in await refresher.refresh($0) },
                finished: { progress.finished($0) })
            guard let plan = planner.exportPlan()?.built else { return (result, nil, nil) }
            let referenced = await exporter.mirrorIcons(
                for: plan, until: Task.isCancelled ? clock.instant : deadline)
            return (result, plan, referenced)
        }
        let interruption = Task { () -> Int32? in
            for await number in signals where number != SIGHUP {
                work.cancel()
                return number
            }
            return nil
        }
        let (result, plan, referenced) = await work.value
        interruption.cancel()
        let signal = await interruption.value
        progress.finish()
        await drawing.value
        if let signal {
            log.notice("stopped waiting on signal \(signal): rosters not refreshed keep their last good files")
        } else if result.stoppedWaiting {
            log.warning(
                "stopped waiting after --max-wait \(options.maxWait): the rate limit or a Retry-After pause would "
                    + "have kept this run waiting longer; rosters not refreshed keep their last good files")
        }

        let export = await exporter.passNow { plan }
        let report = OneShotReport(
            rosters: rosters.rows(), requests: runtime.upstream.snapshot.requests, export: export,
            icons: referenced.map { exporter.tally($0) }, stoppedWaiting: result.stoppedWaiting)
        if options.json {
            StandardStream.output.write(report.json + Data("\n".utf8))
        } else {
            StandardStream.output.write(report.lines.map { $0 + "\n" }.joined())
        }
        log.notice(
            "one-shot run: \(due.count) of \(configuration.editions.count) rosters due, "
                + "\(report.requests) upstream requests" + (export.map { "; \($0.summary)" } ?? "")
                + (report.icons.map { "; \($0.line)" } ?? ""))
        return report.exitStatus
    }
}
