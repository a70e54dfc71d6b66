import Foundation
@preconcurrency import Glibc
import ShowcaseConfig
import ShowcaseCore
import Varlink

/// The `showcased` process from start to exit: configuration, cache, socket, readiness, schedule,
/// signals, shutdown. `main.swift` only calls `Daemon.main`.
///
/// Order matters and is the contract of SPEC §7/§10: the cache is served and `READY=1` is sent before
/// any network request; stale and missing rosters are then refreshed in the background, spread out.
public enum Daemon {
    /// Exit statuses (sysexits.h).
    public enum ExitCode {
        /// Stopped cleanly (SIGTERM/SIGINT), or `--help`/`--version`.
        public static let success: Int32 = 0
        /// `EX_USAGE`: a command-line mistake.
        public static let usage: Int32 = 64
        /// `EX_OSERR`: the socket could not be served (adopting, binding or listening failed).
        public static let osError: Int32 = 71
        /// `EX_CONFIG`: the configuration is invalid or unreadable.
        public static let config: Int32 = 78
    }

    /// Runs the daemon until SIGTERM/SIGINT and returns the process exit status.
    public static func main(arguments: [String]) -> Int32 {
        let options: DaemonOptions
        do {
            options = try DaemonOptions.parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("showcased: \(error)\n\(DaemonOptions.usage)\n".utf8))
            return ExitCode.usage
        }
        if options.showHelp {
            print(DaemonOptions.usage)
            return ExitCode.success
        }
        if options.showVersion {
            print("showcased \(ShowcaseVersion.string)")
            return ExitCode.success
        }

        // Signals first: a SIGTERM that arrives while the cache loads must still stop the daemon cleanly.
        let stop = DispatchSemaphore(value: 0)
        let reloadTarget = NSLockedBox<DaemonCore?>(nil)
        let signals = SignalHandler()
        signals.on(SIGTERM) { stop.signal() }
        signals.on(SIGINT) { stop.signal() }
        signals.on(SIGHUP) {
            guard let core = reloadTarget.withLock({ $0 }) else { return }
            core.reloadQueue.async { _ = core.reload(trigger: "SIGHUP") }
        }

        let log = DaemonLog()
        let notifier = SystemdNotifier()
        let configPath = URL(fileURLWithPath: options.configPath ?? DefaultPaths().configFile).standardizedFileURL.path
        let configuration: Configuration
        do {
            configuration = try DaemonCore.loadConfiguration(path: configPath, options: options)
        } catch {
            for item in error.errors {
                log.error("\(item.file):\(item.line):\(item.column): \(item.message)")
            }
            return ExitCode.config
        }

        let core = DaemonCore(
            options: options, configPath: configPath, configuration: configuration, log: log, notifier: notifier)
        let cachedRosters = core.loadCache()
        reloadTarget.withLock { $0 = core }
        // Put every storefront on the schedule before the socket opens (the worker, and with it any network
        // request, starts only after READY): a cached roster found unreadable by the first query can then
        // always be brought forward.
        let scheduled = DispatchSemaphore(value: 0)
        Task {
            await core.scheduleWarm(configuration.storefronts)
            scheduled.signal()
        }
        scheduled.wait()

        let roster = RosterMethods(config: core.config, store: core.store, warm: core.warm, scheduler: core.scheduler)
        let server: VarlinkServer
        let socketDescription: String
        do {
            var service = VarlinkService(
                vendor: "showcase", product: "showcased", version: ShowcaseVersion.string,
                url: "")
            try service.add(roster.interface())
            try service.add(AdminMethods(daemon: core).interface())
            server = try VarlinkServer(service: service)
            if let fd = SocketActivation.takeListeningDescriptor() {
                try server.adopt(listeningDescriptor: fd)
                socketDescription = "the socket passed by systemd"
            } else {
                try server.bind(path: configuration.socket.path, mode: mode_t(configuration.socket.mode))
                socketDescription = configuration.socket.path
            }
            try server.start()
        } catch {
            log.error("cannot serve the socket: \(error)")
            return ExitCode.osError
        }

        // Ready: the socket answers from the cache. No network request has been made yet.
        notifier.ready(status: "starting: \(cachedRosters) rosters loaded from the cache")
        log.notice(
            "showcased \(ShowcaseVersion.string) listening on \(socketDescription) "
                + "(\(configuration.summary); \(cachedRosters) cached rosters, config generation 1)")

        let started = DispatchSemaphore(value: 0)
        Task {
            await core.scheduler.start()
            started.signal()
        }
        started.wait()
        // Decode what the listing left undecoded: off the loop thread, before the status line (which reads
        // every storefront's state) so that line does not decode them all on this thread at the same time.
        DispatchQueue.global(qos: .utility).async {
            core.decodeCache()
            if notifier.isEnabled { notifier.status(core.statusLine()) }
        }
        // WATCHDOG=1 only while the Varlink loop answers a call of its own within a quarter of the period.
        let probe = ServerProbe(server: server, timeout: (notifier.watchdogInterval ?? .seconds(20)) / 4)
        notifier.startWatchdog(isHealthy: probe.isAnswering)

        stop.wait()

        // Shutdown: stop accepting and finish in-flight replies while the refresh in progress (and its
        // cache write) completes; then exit 0. The bound socket file is removed by the server.
        notifier.stopping()
        log.notice("stopping: finishing in-flight replies and cache writes")
        let schedulerStopped = DispatchSemaphore(value: 0)
        Task {
            await core.scheduler.stop()
            schedulerStopped.signal()
        }
        roster.finishWatches()
        server.shutdown(gracePeriod: .seconds(2))
        schedulerStopped.wait()
        withExtendedLifetime(signals) {}
        log.notice("stopped")
        return ExitCode.success
    }
}
