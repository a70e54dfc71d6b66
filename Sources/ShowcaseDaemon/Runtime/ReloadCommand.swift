import FoundationEssentials
import ShowcaseConfig
import ShowcaseCore

/// `Admin.Reload` and SIGHUP: the configuration read again, validated completely, and swapped in as one transition
/// of the state (``StateOwner/reload(to:)``), or rejected with nothing changed. Built from the parts it uses: the
/// state, the loader, the log, systemd's notifier and status line, and what was fixed at startup.
final class ReloadCommand: Sendable {
    private let state: StateOwner
    private let load: @Sendable () throws(ConfigErrors) -> Configuration
    private let log: DaemonLog
    private let notifier: SystemdNotifier
    private let statusLine: @Sendable () -> String
    private let reloads = SerialGate()
    private let startedCacheDirectory: String
    private let startedSocketPath: String

    /// Reloads of the state started with `configuration`, reading the file again with `load`.
    init(
        state: StateOwner, configuration: Configuration,
        load: @escaping @Sendable () throws(ConfigErrors) -> Configuration, log: DaemonLog, notifier: SystemdNotifier,
        statusLine: @escaping @Sendable () -> String
    ) {
        self.state = state
        self.load = load
        self.log = log
        self.notifier = notifier
        self.statusLine = statusLine
        startedCacheDirectory = configuration.cache.directory
        startedSocketPath = configuration.socket.path
    }

    /// Validates the configuration file and its overlays completely, then swaps them in at once; on any error
    /// nothing changes and the error is kept for Status. Reloads run one at a time. Returns the new generation.
    func reload(trigger: String) async -> Result<Int, ConfigErrors> {
        await reloads.run { await self.reloadNow(trigger: trigger) }
    }

    private func reloadNow(trigger: String) async -> Result<Int, ConfigErrors> {
        notifier.reloading()
        let configuration: Configuration
        do {
            configuration = try load()
        } catch {
            let generation = state.update { state, _ in (state.config.generation, state.rejectReload(error.oneLine)) }
            log.error("reload (\(trigger)) rejected, still running generation \(generation): \(error.first)")
            notifier.ready(status: statusLine())
            return .failure(error)
        }
        let reload = state.reload(to: configuration)
        let old = reload.old
        if configuration.socket.path != startedSocketPath {
            log.notice("socket.path changed to \(configuration.socket.path); it takes effect after a restart")
        }
        if configuration.socket.maxConnections != old.socket.maxConnections
            || configuration.socket.maxConnectionsPerUID != old.socket.maxConnectionsPerUID
        {
            log.notice("socket.max_connections and max_connections_per_uid take effect after a restart")
        }
        if configuration.cache.directory != startedCacheDirectory {
            log.notice("cache.directory changed to \(configuration.cache.directory); it takes effect after a restart")
        }
        if reload.artworkHostsChanged {
            log.notice("lookup.artwork_hosts changed; refetching every roster so its icons obey the new prefixes")
        }
        if let directory = old.export?.directory, directory != configuration.export?.directory {
            log.notice(
                "export.directory changed from \(directory)"
                    + (configuration.export.map { " to \($0.directory)" } ?? " to none")
                    + "; the tree already exported there is left as it is (remove it when nothing serves it)")
        }
        log.notice(
            "reloaded configuration by \(trigger): generation \(reload.generation), \(configuration.summary)")
        notifier.ready(status: statusLine())
        return .success(reload.generation)
    }
}
