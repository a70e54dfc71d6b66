/// The `cache:` section: where rosters are kept between runs.
public struct CacheSettings: Sendable, Equatable {
    /// `cache.directory` — path, default `DefaultPaths.cacheDirectory` (`$CACHE_DIRECTORY`, else
    /// `/var/cache/showcase` as root, else `$XDG_CACHE_HOME/showcase`). A relative path is taken
    /// relative to the configuration file. It need not exist for `check-config`.
    public var directory: String

    /// A cache section using `directory` as given: unlike the loader, this does not resolve a relative path.
    public init(directory: String) {
        self.directory = directory
    }

    static let keys = ["directory"]

    init(reading node: YAMLNode?, defaults: DefaultPaths, base: String, diagnostics: inout ConfigDiagnostics) {
        self.init(directory: defaults.cacheDirectory)
        guard let node, let fields = diagnostics.fields(of: node, in: "cache", known: Self.keys) else { return }
        if let value = fields["directory"],
            let path = diagnostics.string(value, "cache.directory", expected: "a directory path")
        {
            directory = ConfigLoader.resolve(path, relativeTo: base)
        }
    }
}
