import FoundationEssentials
@preconcurrency import Glibc
import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore
import Varlink

/// The `showcased` process from start to exit: options, configuration, cache, socket, readiness, then the
/// services (scheduler, socket, watchdog, cache decoding, export, metrics textfile) in one ``ServiceGroup`` until
/// SIGTERM/SIGINT. `main.swift` only awaits `Daemon.main`.
///
/// Order matters: the cache is served and `READY=1` is sent before any network request (the scheduler's worker
/// starts only in the group); stale and missing rosters are then refreshed in the background, spread out.
public enum Daemon {
    /// Exit statuses (sysexits.h).
    public enum ExitCode {
        /// Stopped cleanly (SIGTERM/SIGINT), or `--help`/`--version`.
        public static let success: Int32 = 0
        /// `EX_USAGE`: a command-line mistake.
        public static let usage: Int32 = 64
        /// `EX_OSERR`: the socket could not be served (adopting, binding or listening failed), or another process
        /// (a daemon, a `--once` run) holds the cache directory.
        public static let osError: Int32 = 71
        /// `EX_CONFIG`: the configuration is invalid or unreadable.
        public static let config: Int32 = 78
        /// `--once`: a roster ended in a diagnostic (MalformedResponse, MissingEntityParameter, HostAppNotFound).
        public static let diagnostic: Int32 = 1
        /// `EX_CANTCREAT`, `--once`: the export could not be written.
        public static let exportFailed: Int32 = 73
        /// `EX_TEMPFAIL`, `--once`: a roster was left stale or unavailable (transport failure or `--max-wait`).
        public static let temporaryFailure: Int32 = 75
    }

    /// Runs the daemon until SIGTERM/SIGINT and returns the process exit status.
    public static func main(arguments: [String]) async -> Int32 {
        let options: DaemonOptions
        do {
            options = try DaemonOptions.parse(arguments)
        } catch {
            // The message quotes the argument; escaped like a log line, so it cannot drive the terminal.
            let message = "showcased: \(error)".escapingControlCharacters()
            let usage = error.showsUsage ? "\(DaemonOptions.usage)\n" : ""
            StandardStream.error.write("\(message)\n\(usage)")
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
        let signals = ProcessSignals([SIGTERM, SIGINT, SIGHUP])
        // One clock for the whole process: the log's timestamps and the schedule agree. Under --once on a terminal,
        // log lines share stderr with the progress line and clear it first.
        let clock = SystemClock()
        let log = DaemonLog(
            clearingProgressLine: options.once && OneShotProgress.isWanted(json: options.json), clock: clock)
        let notifier = SystemdNotifier()
        let configPath = URL(fileURLWithPath: options.configPath ?? DefaultPaths().configFile).standardizedFileURL.path
        let load: @Sendable () throws(ConfigErrors) -> Configuration = { () throws(ConfigErrors) in
            try loadConfiguration(path: configPath, options: options)
        }
        let configuration: Configuration
        do {
            configuration = try load()
        } catch {
            for item in error.errors {
                log.error("\(item)")
            }
            return ExitCode.config
        }

        // One process per cache directory (SPEC §17): a second daemon or `--once` run is refused at once. The
        // lock is held until the process exits.
        let cacheLock: CacheLock?
        do {
            cacheLock = try CacheLock.acquire(directory: configuration.cache.directory)
        } catch let refusal where refusal.isHeld {
            log.error(refusal.description)
            return ExitCode.osError
        } catch {
            log.warning("\(error.description); going on without it")
            cacheLock = nil
        }
        defer { withExtendedLifetime(cacheLock) {} }
        if options.once {
            let status = await runOnce(
                options, configuration: configuration, configPath: configPath, load: load, clock: clock, log: log,
                signals: signals.stream)
            withExtendedLifetime(signals) {}
            return status
        }

        let runtime = DaemonRuntime(
            configuration: configuration, configPath: configPath, load: load,
            transport: { transport(for: $0, clock: clock) }, clock: clock, log: log, notifier: notifier)
        let cachedRosters = runtime.seeder.loadCache()
        // Every storefront is on the schedule before the socket opens (the worker, and with it any network
        // request, starts only after READY): a cached roster found unreadable by the first query can then
        // always be brought forward.
        runtime.seeder.scheduleWarm(configuration.storefronts)

        let server: VarlinkServer
        let socketDescription: String
        do {
            // The socket's idle and shutdown deadlines run on the daemon's one clock.
            server = try VarlinkServer(
                service: try runtime.interfaces(), limits: serverLimits(configuration, state: runtime.state),
                clock: VarlinkServer.Clock { clock.instant })
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

        let reload = runtime.reload
        await ServiceGroup(services: runtime.lifecycleServices(server: server), shutdown: runtime.shutdown).run(
            signals: signals.stream,
            reload: { _ = await reload.reload(trigger: "SIGHUP") },
            stopping: {
                // Shutdown: stop accepting and finish in-flight replies while the refresh in progress (and its
                // cache write) completes; then exit 0.
                notifier.stopping()
                log.notice("stopping: finishing in-flight replies and cache writes")
            })
        withExtendedLifetime(signals) {}
        log.notice("stopped")
        return ExitCode.success
    }

    /// The socket's limits from `socket.*`: the two connection caps, and a reserve beyond them for root, the
    /// daemon's uid and `socket.admin_uids` (as configured now, reloads included) that serves only
    /// `io.showcase.Admin` and `org.varlink.service`, so an administrator can always see what is going on.
    static func serverLimits(_ configuration: Configuration, state: StateOwner) -> VarlinkServer.Limits {
        let ownUID = getuid()
        return VarlinkServer.Limits(
            maxConnections: configuration.socket.maxConnections,
            maxConnectionsPerUID: configuration.socket.maxConnectionsPerUID,
            reserveInterfaces: [ShowcaseInterfaces.adminName, "org.varlink.service"],
            isPrivileged: { peer in
                peer.uid == 0 || peer.uid == ownUID
                    || state.config.configuration.socket.adminUIDs.contains(peer.uid)
            })
    }

    /// Loads the configuration file with the command line's overrides applied.
    static func loadConfiguration(path: String, options: DaemonOptions) throws(ConfigErrors) -> Configuration {
        var defaults = DefaultPaths()
        // --socket wins over SHOWCASE_SOCKET: a relative value there is then not this run's mistake.
        if options.socketPath != nil { defaults.environment[DefaultPaths.socketVariable] = nil }
        var configuration = try ConfigLoader.load(path: path, defaults: defaults)
        if let socket = options.socketPath { configuration.socket.path = socket }
        if let cache = options.cacheDirectory { configuration.cache.directory = cache }
        return configuration
    }

    /// The HTTPS transport for `lookup.*`, reading `Retry-After` dates against the daemon's `clock`.
    @Sendable static func transport(for configuration: Configuration, clock: any ShowcaseClock) -> any LookupTransport {
        CurlTransport(
            endpoint: configuration.lookup.endpoint, timeout: configuration.lookup.timeout,
            maxResponseBytes: configuration.lookup.maxResponseBytes, version: ShowcaseVersion.string, clock: clock)
    }
}
