/// The `export:` section: the static JSON tree showcased keeps current for web stacks, nginx, object stores and
/// CDNs (layout and write rules in README "Static export"). Absent, nothing is exported.
public struct ExportSettings: Sendable, Equatable {
    /// `export.directory` — path, required when the section is present (the packaged unit uses
    /// `/var/lib/showcase/export`, under `StateDirectory=showcase`). Documents go to `<directory>/v1/`. A relative
    /// path is taken relative to the configuration file. It need not exist for `check-config`. It must not be
    /// the cache directory, inside it, or contain it: the cache is private and rewritten on its own schedule, the
    /// export is published as it is.
    public var directory: String
    /// `export.gzip` — boolean, default `true`: also write `NAME.json.gz` (the same bytes, compressed) beside each
    /// document, so nginx's `gzip_static` serves it without compressing on every request.
    public var gzip: Bool

    /// An export section using `directory` as given (unlike the loader, no relative-path resolution).
    public init(directory: String, gzip: Bool = true) {
        self.directory = directory
        self.gzip = gzip
    }

    static let keys = ["directory", "gzip"]

    /// Reads the section; nil after reporting when it cannot be used (no directory, or an unusable one).
    /// `cacheDirectory` is the already-resolved `cache.directory`, which the export must stay clear of.
    init?(reading node: YAMLNode, base: String, cacheDirectory: String, diagnostics: inout ConfigDiagnostics) {
        guard let fields = diagnostics.fields(of: node, in: "export", known: Self.keys) else { return nil }
        var gzip = true
        if let value = fields["gzip"], let flag = diagnostics.bool(value, "export.gzip") { gzip = flag }
        guard let value = fields["directory"] else {
            diagnostics.report(
                .missing, at: node,
                "'export' has no 'directory'; add one, like: directory: /var/lib/showcase/export "
                    + "(or remove the 'export' section to export nothing)")
            return nil
        }
        guard let text = diagnostics.string(value, "export.directory", expected: "a directory path") else {
            return nil
        }
        let directory = Self.normalized(ConfigLoader.resolve(text, relativeTo: base))
        let cache = Self.normalized(cacheDirectory)
        if Self.isSameOrInside(directory, cache) {
            diagnostics.report(
                .invalidValue, at: value,
                "'export.directory' \(directory) is inside the cache directory \(cache); "
                    + "choose a directory of its own, like /var/lib/showcase/export")
            return nil
        }
        if Self.isSameOrInside(cache, directory) {
            diagnostics.report(
                .invalidValue, at: value,
                "'export.directory' \(directory) contains the cache directory \(cache), "
                    + "which would publish the cache; choose a directory of its own, like /var/lib/showcase/export")
            return nil
        }
        self.init(directory: directory, gzip: gzip)
    }

    /// `path` with `.` and empty components dropped and `..` applied, without touching the file system (the
    /// directory need not exist yet), so `/var/cache/showcase/../showcase/x` is recognised as inside the cache.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : joined
    }

    /// True when `path` is `directory` or lies below it (both normalised).
    static func isSameOrInside(_ path: String, _ directory: String) -> Bool {
        path == directory || directory == "/" || path.hasPrefix(directory + "/")
    }
}
