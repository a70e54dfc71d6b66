import ShowcaseCore

/// Where the export's `v1/` is served (`export.public_url`) and the one rule every URL attribute a renderer writes
/// follows: an absolute `https:` URL of the strict shape (``URLRules/isStrictHTTPS(_:)``), or a path inside the
/// tree under the public URL. Anything else — `http:`, `javascript:`, `data:`, a relative or protocol-relative
/// URL — is never written: a row whose store link fails is left out (the row is its link), an icon that fails is
/// left out (the row keeps its text).
public struct PublicTree: Sendable, Hashable {
    /// `export.public_url`, ending in `/`: a path (`/showcase/v1/`) or an absolute https URL.
    public var url: String
    /// True when ``url`` is an absolute `https://` URL (email and structured data need one).
    public var isAbsolute: Bool

    /// The tree served at `url` (`export.public_url`, as the configuration validated it).
    public init(url: String, isAbsolute: Bool) {
        self.url = url.hasSuffix("/") ? url : url + "/"
        self.isAbsolute = isAbsolute
    }

    /// The tree a renderer's `context` names (`export.public_url`).
    public init(_ context: RenderContext) {
        self.init(url: context.publicURL, isAbsolute: context.publicURLIsAbsolute)
    }

    /// The tree at the default `export.public_url`, `/showcase/v1/` (as etc/nginx/showcase.conf serves it).
    public static let standard = PublicTree(url: "/showcase/v1/", isAbsolute: false)

    /// `url` when it may stand in an `href` or `src`: strict `https:` (upstream's store and icon URLs), else nil.
    func link(_ url: String) -> String? { URLRules.isStrictHTTPS(url) ? url : nil }

    /// The URL of a file of the tree at `path` (relative to `v1/`, as a document's `icons` lists it), or nil when
    /// the path could leave the tree: only `[A-Za-z0-9._-]` segments, none empty, `.` or `..`.
    func file(_ path: String) -> String? {
        guard !path.isEmpty, !path.hasPrefix("/") else { return nil }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            guard !segment.isEmpty, segment != ".", segment != "..",
                segment.utf8.allSatisfy({ Self.isPathByte($0) })
            else { return nil }
        }
        return url + path
    }

    /// The absolute URL of a file of the tree, or nil when ``url`` is a path (an email has no page to resolve
    /// it against) or the path could leave the tree.
    func absoluteFile(_ path: String) -> String? { isAbsolute ? file(path) : nil }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
