import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Where showcased and showcasectl look when no path is given (README "Configuration": default paths), as a pure function of the
/// environment and the uid so both programs agree and tests can ask about root without being root.
///
/// systemd's `ConfigurationDirectory=`, `CacheDirectory=` and `RuntimeDirectory=` set the matching
/// environment variables; those win. Otherwise root uses the system locations and everyone else the
/// XDG base directories.
public struct DefaultPaths: Sendable, Equatable {
    /// The environment the paths are derived from (systemd's `*_DIRECTORY`, `XDG_*`, `HOME`).
    public var environment: [String: String]
    /// The uid the paths are for: 0 selects the system locations.
    public var uid: UInt32

    /// Paths for this process by default; pass another environment or uid to ask on someone else's behalf.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, uid: UInt32 = getuid()) {
        self.environment = environment
        self.uid = uid
    }

    /// `$CONFIGURATION_DIRECTORY/showcase.yaml`, else `/etc/showcase/showcase.yaml` as root,
    /// else `$XDG_CONFIG_HOME/showcase/showcase.yaml` (XDG default `~/.config`).
    public var configFile: String {
        if let directory = systemdDirectory("CONFIGURATION_DIRECTORY") { return "\(directory)/showcase.yaml" }
        if uid == 0 { return "/etc/showcase/showcase.yaml" }
        return "\(xdg("XDG_CONFIG_HOME", fallback: ".config"))/showcase/showcase.yaml"
    }

    /// `$CACHE_DIRECTORY`, else `/var/cache/showcase` as root, else `$XDG_CACHE_HOME/showcase`
    /// (XDG default `~/.cache`).
    public var cacheDirectory: String {
        if let directory = systemdDirectory("CACHE_DIRECTORY") { return directory }
        if uid == 0 { return "/var/cache/showcase" }
        return "\(xdg("XDG_CACHE_HOME", fallback: ".cache"))/showcase"
    }

    /// `$STATE_DIRECTORY`, else `/var/lib/showcase` as root, else `$XDG_STATE_HOME/showcase`
    /// (XDG default `~/.local/state`): the change history and icon index, which cannot be fetched again.
    public var stateDirectory: String {
        if let directory = systemdDirectory("STATE_DIRECTORY") { return directory }
        if uid == 0 { return "/var/lib/showcase" }
        return "\(xdg("XDG_STATE_HOME", fallback: ".local/state"))/showcase"
    }

    /// `$SHOWCASE_SOCKET`, else `$RUNTIME_DIRECTORY/showcased.sock`, else `/run/showcase/showcased.sock` as root,
    /// else `$XDG_RUNTIME_DIR/showcase/showcased.sock` (`/run/user/<uid>` when XDG_RUNTIME_DIR is unset).
    ///
    /// `SHOWCASE_SOCKET` is taken as it is, even when relative: whoever uses this default checks
    /// ``socketVariableProblem`` first, so a relative value is refused, never quietly resolved against some
    /// working directory or skipped for another socket.
    public var socketPath: String {
        if let path = value(Self.socketVariable) { return path }
        if let directory = systemdDirectory("RUNTIME_DIRECTORY") { return "\(directory)/showcased.sock" }
        if uid == 0 { return "/run/showcase/showcased.sock" }
        let runtime = value("XDG_RUNTIME_DIR") ?? "/run/user/\(uid)"
        return "\(runtime)/showcase/showcased.sock"
    }

    /// The environment variable that names the socket for both programs when neither `--socket` nor
    /// `socket.path` does (SPEC §9).
    public static let socketVariable = "SHOWCASE_SOCKET"

    /// Why ``socketPath`` cannot be used: `SHOWCASE_SOCKET` holds a relative path (an empty value is ignored). A
    /// sentence naming the variable; nil when the default is usable.
    public var socketVariableProblem: String? {
        guard let path = value(Self.socketVariable), !path.hasPrefix("/") else { return nil }
        return "\(Self.socketVariable) must be an absolute path, found '\(path)'; "
            + "set it to the socket's full path (like /run/showcase/showcased.sock) or unset it"
    }

    private func value(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// systemd passes several directories colon-separated when a unit names several; ours is the first.
    private func systemdDirectory(_ name: String) -> String? {
        value(name).flatMap { $0.split(separator: ":").first.map(String.init) }
    }

    private func xdg(_ name: String, fallback: String) -> String {
        if let directory = value(name), directory.hasPrefix("/") { return directory }
        let home = value("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path
        return "\(home)/\(fallback)"
    }
}
