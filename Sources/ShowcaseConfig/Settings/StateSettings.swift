/// The `state:` section: where showcased keeps what it cannot fetch again — the change history (SPEC §15) and the
/// icon index (SPEC §16). Unlike the cache, deleting it loses information.
public struct StateSettings: Sendable, Equatable {
    /// `state.directory` — path, default ``DefaultPaths/stateDirectory`` (`$STATE_DIRECTORY`, else
    /// `/var/lib/showcase` as root, else `$XDG_STATE_HOME/showcase`). A relative path is taken relative to the
    /// configuration file. It need not exist for `check-config`.
    public var directory: String

    /// A state section using `directory` as given: unlike the loader, this does not resolve a relative path.
    public init(directory: String) {
        self.directory = directory
    }

    static let keys = ["directory"]

    init(reading node: YAMLNode?, defaults: DefaultPaths, base: String, diagnostics: inout ConfigDiagnostics) {
        self.init(directory: defaults.stateDirectory)
        guard let node, let fields = diagnostics.fields(of: node, in: "state", known: Self.keys) else { return }
        if let value = fields["directory"],
            let path = diagnostics.string(value, "state.directory", expected: "a directory path")
        {
            directory = ConfigLoader.resolve(path, relativeTo: base)
        }
    }
}
