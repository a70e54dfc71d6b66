import FoundationEssentials
import ShowcaseCore

/// What an ``ExportWriter`` remembers between passes about the files under `v1/`: for each file it checked, the
/// file's identity (``FileIdentity``: inode, size, mtime, ctime) and a digest of the content it holds.
///
/// A pass then knows a file is unchanged from one `lstat` when its identity is the remembered one and the content
/// it wants has the remembered digest — no read, no inflating of a `.json.gz` — and knows a document's revision
/// without reading its header. A file edited, replaced or removed by anything else has another identity, so it
/// is read and compared as on a first pass, and rewritten when it differs.
///
/// Only identities that were settled when seen are kept (their ctime at least ``FileIdentity/settleNanoseconds``
/// before ``clock``'s `now`): a file written in this pass is read back once on the next one before it is trusted,
/// since another write within the same clock tick would leave its times as they were.
///
/// The daemon keeps one per export directory for its lifetime; a value that comes from another directory is
/// ignored. A fresh one (or none) makes the writer read every file, as after a restart.
public struct ExportMemory: Sendable {
    /// One file as last seen.
    struct File: Sendable {
        var identity: FileIdentity
        /// The content it holds; for a `.json.gz`, the content it inflates to.
        var digest: ContentDigest
        /// A document's `revision` and `revisedAt` (nil for index.json and `.gz` files).
        var revision: Int?
        var revisedAt: Date?
    }

    /// The files a roster's last pass planned (documents and rendered files, not their `.gz`), with the inputs
    /// they came from: a roster whose inputs are the same again reuses them without rendering.
    struct Rendered: Sendable {
        /// ``ExportRoster/fingerprint`` of the roster they were rendered from.
        var fingerprint: [Int]
        /// The writer's settings that shape the files (gzip, public URL, renderers).
        var settings: [String]
        /// By path relative to `v1/`: each file's content digest, and a document's revision.
        var files: [String: RenderedFile]
        /// The mirrored icons its documents reference (SPEC §16), which stay while it is reused.
        var icons: Set<String> = []
    }

    /// One file of a ``Rendered`` roster.
    struct RenderedFile: Sendable {
        var digest: ContentDigest
        var revision: Int?
        var revisedAt: Date?
    }

    /// The tree (`<directory>/v1`) the files are in.
    var root: String?
    /// By path relative to `v1/`.
    var files: [String: File] = [:]
    /// By roster (host, storefront, language).
    var rendered: [String: Rendered] = [:]
    /// The manifest as last read, trusted like any remembered file while its identity holds: a pass that finds it
    /// so does not parse it again.
    var manifest: (identity: FileIdentity, listed: ExportManifest)?
    /// What the site's passes (``SiteWriter``) remember of `site/`.
    var site = SiteMemory()
    /// The wall clock a file's ctime is measured against to decide whether it has settled: the daemon's, so a test
    /// that moves a manual clock past the settle margin needs no sleep.
    let clock: any ShowcaseClock

    /// An empty memory, judging settledness by `clock`: the next pass reads every file it compares.
    public init(clock: any ShowcaseClock = SystemClock()) {
        self.clock = clock
    }

    /// What a pass leaves for the next: `files` under `root` and the manifest as read, judged by `clock` from then
    /// on.
    init(
        root: String, files: [String: File], rendered: [String: Rendered] = [:],
        manifest: (identity: FileIdentity, listed: ExportManifest)? = nil, clock: any ShowcaseClock
    ) {
        self.root = root
        self.files = files
        self.rendered = rendered
        self.manifest = manifest
        self.clock = clock
    }

    /// How many files are remembered.
    public var count: Int { files.count }
}
