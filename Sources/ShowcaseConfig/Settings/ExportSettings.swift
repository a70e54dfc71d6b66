import ShowcaseCore

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
    /// `export.html` — boolean, default `false`: also write the web fragments of SPEC §14 beside each document
    /// (`NAME.html`, `NAME.email.html`) and `v1/<host>/banner.html`.
    public var html: Bool
    /// `export.feed` — boolean, default `false`: also write the Atom feed of SPEC §15 (`NAME.atom`) beside each
    /// document.
    public var feed: Bool
    /// `export.public_url` — default `/showcase/v1/`: where `v1/` is served, an absolute path (as
    /// `etc/nginx/showcase.conf` serves it) or an absolute `https://` URL; stored ending in `/`. Fragments link
    /// mirrored icons through it; email icons and the Atom `self` link need the absolute form.
    public var publicURL: String
    /// `export.icons` — mirror app icons into `v1/icons/` (SPEC §16); nil when absent or `sizes: []` (off).
    public var icons: IconSettings?
    /// `export.site` — the static site of SPEC §18; nil when absent.
    public var site: SiteSettings?

    /// The default `export.public_url`, where `etc/nginx/showcase.conf` serves `v1/`.
    public static let defaultPublicURL = "/showcase/v1/"

    /// An export section using `directory` as given (unlike the loader, no relative-path resolution).
    public init(
        directory: String, gzip: Bool = true, html: Bool = false, feed: Bool = false,
        publicURL: String = ExportSettings.defaultPublicURL, icons: IconSettings? = nil, site: SiteSettings? = nil
    ) {
        self.directory = directory
        self.gzip = gzip
        self.html = html
        self.feed = feed
        self.publicURL = publicURL
        self.icons = icons
        self.site = site
    }

    /// True when ``publicURL`` is an absolute `https://` URL rather than a path on the page's own origin.
    public var publicURLIsAbsolute: Bool { publicURL.hasPrefix("https://") }

    static let keys = ["directory", "gzip", "html", "feed", "public_url", "icons", "site"]

    /// Reads the section; nil after reporting when it cannot be used (no directory, or an unusable one).
    /// `cacheDirectory` is the already-resolved `cache.directory`, which the export must stay clear of.
    init?(reading node: YAMLNode, base: String, cacheDirectory: String, diagnostics: inout ConfigDiagnostics) {
        guard let fields = diagnostics.fields(of: node, in: "export", known: Self.keys) else { return nil }
        var gzip = true
        if let value = fields["gzip"], let flag = diagnostics.bool(value, "export.gzip") { gzip = flag }
        var html = false
        if let value = fields["html"], let flag = diagnostics.bool(value, "export.html") { html = flag }
        var feed = false
        if let value = fields["feed"], let flag = diagnostics.bool(value, "export.feed") { feed = flag }
        var publicURL = Self.defaultPublicURL
        if let value = fields["public_url"], let url = Self.publicURL(value, diagnostics: &diagnostics) {
            publicURL = url
        }
        let icons = fields["icons"].flatMap { IconSettings(reading: $0, diagnostics: &diagnostics) }
        let site = fields["site"].flatMap { SiteSettings(reading: $0, base: base, diagnostics: &diagnostics) }
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
        self.init(
            directory: directory, gzip: gzip, html: html, feed: feed, publicURL: publicURL, icons: icons, site: site)
    }

    /// `export.public_url`: an absolute path or an `https://host[:port]/path` URL, without query, fragment,
    /// userinfo or characters a URL must escape; returned ending in `/`. Nil after reporting anything else.
    static func publicURL(_ node: YAMLNode, diagnostics: inout ConfigDiagnostics) -> String? {
        let key = "export.public_url"
        guard let text = diagnostics.string(node, key, expected: "a path or an https URL") else { return nil }
        if text.hasPrefix("https://") {
            return httpsURL(
                text, at: node, key: key, example: "https://example.com/showcase/v1/", diagnostics: &diagnostics)
        }
        guard text.hasPrefix("/") else {
            diagnostics.report(
                .invalidValue, at: node,
                "'\(key)' must be an absolute path like /showcase/v1/ or an https URL like "
                    + "https://example.com/showcase/v1/, found '\(text.escapingControlCharacters())'")
            return nil
        }
        return urlPath(
            Substring(text), of: text, at: node, key: key, example: "/showcase/v1/", diagnostics: &diagnostics)
    }

    /// `text`, which starts with `https://`, ending in `/` when it has a host (letters, digits, dots and dashes, an
    /// optional port) and a path without query, fragment or characters a URL must escape; nil after reporting
    /// anything else. `key` and `example` word the messages.
    static func httpsURL(
        _ text: String, at node: YAMLNode, key: String, example: String, diagnostics: inout ConfigDiagnostics
    ) -> String? {
        let rest = text.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" }
        let hostPattern = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let hostIsValid =
            !authority.isEmpty && !authority.contains("@")
            && hostPattern[0].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
            && !hostPattern[0].isEmpty
            && (hostPattern.count == 1 || (hostPattern[1].allSatisfy(\.isASCII) && UInt16(hostPattern[1]) != nil))
        guard hostIsValid else {
            diagnostics.report(
                .invalidValue, at: node, "'\(key)' \(text) has no usable host; write it like \(example)")
            return nil
        }
        return urlPath(
            rest.dropFirst(authority.count), of: text, at: node, key: key, example: example, diagnostics: &diagnostics)
    }

    /// `text` ending in `/` when its `path` has only characters a URL path may carry unescaped; nil after reporting.
    private static func urlPath(
        _ path: Substring, of text: String, at node: YAMLNode, key: String, example: String,
        diagnostics: inout ConfigDiagnostics
    ) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/%!$&()*+,;=:@")
        if let bad = path.first(where: { !allowed.contains($0) }) {
            diagnostics.report(
                .invalidValue, at: node,
                "'\(key)' may not contain '\(String(bad).escapingControlCharacters())' (no query, fragment, spaces "
                    + "or quotes; percent-encode what a URL needs escaped), found '\(text.escapingControlCharacters())'; "
                    + "write it like \(example)")
            return nil
        }
        return text.hasSuffix("/") ? text : text + "/"
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
