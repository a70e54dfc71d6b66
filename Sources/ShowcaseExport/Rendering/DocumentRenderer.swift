import ShowcaseCore

/// One more file beside each document: `<platform><suffix>` next to `<platform>.json`, rendered from the same
/// ``ExportDocument`` (the web fragments' `.html` and `.email.html`, the Atom feed's `.atom`).
///
/// A renderer is a pure function of the document and its ``RenderContext``: the writer decides when to call it
/// and writes what it returns by the export's rules (atomically, only when the bytes change, with a `.gz` when
/// `gzip` is on, listed in the manifest, removed with its document, kept byte for byte while the roster is in a
/// diagnostic). An empty result is an empty file (an include of it shows nothing).
public protocol DocumentRenderer: Sendable {
    /// What replaces `.json` in the document's file name: `.html`, `.email.html`, `.atom`.
    var suffix: String { get }
    /// The file's bytes for `document`.
    func render(_ document: ExportDocument, in context: RenderContext) -> [UInt8]
}

/// One file per host, at `v1/<host>/<name>` (the Smart App Banner's `banner.html`), rendered from the host's first
/// configured roster that has content. Nil writes nothing and keeps a file written earlier.
public protocol HostFileRenderer: Sendable {
    /// The file's name inside the host's directory.
    var name: String { get }
    /// The file's bytes for the host of `roster`, or nil when there is nothing to say yet.
    func render(_ roster: ExportRoster, in context: RenderContext) -> [UInt8]?
}

/// What a renderer knows besides the document: the roster it came from, where the tree is served, and where the
/// document lives in it.
public struct RenderContext: Sendable {
    /// The roster the document belongs to (host, storefront, language, the developer's name, the host's app id).
    public var roster: ExportRoster
    /// `export.public_url`: where `v1/` is served, ending in `/` (a path, or an absolute `https://` URL).
    public var publicURL: String
    /// The document's path relative to `v1/` (`com.example.Host/ca/fr/ios.json`); for a host file, the file's.
    public var documentPath: String

    /// A context for a document of `roster` at `documentPath`, the tree served at `publicURL`.
    public init(roster: ExportRoster, publicURL: String, documentPath: String) {
        self.roster = roster
        self.publicURL = publicURL
        self.documentPath = documentPath
    }

    /// True when ``publicURL`` is an absolute `https://` URL (what email icons and an Atom `self` link need).
    public var publicURLIsAbsolute: Bool { publicURL.hasPrefix("https://") }

    /// `path` (relative to `v1/`) as a URL under ``publicURL``.
    public func publicURL(of path: String) -> String { publicURL + path }
}
