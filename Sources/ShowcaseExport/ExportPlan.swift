import FoundationEssentials
import ShowcaseCore

/// What an export pass wants under `v1/`, worked out from the rosters, the icons given and ``ExportMemory`` alone —
/// no file system: the rosters to render, with the paths of their documents and of the files rendered beside them;
/// the rosters whose inputs are the ones the last pass rendered (their files are checked on disk, not rendered);
/// the files rendered once per host; the icons; and the errors and diagnostics the rosters carry.
///
/// The bytes are rendered when the pass reconciles the plan with the tree
/// (``ExportWriter/reconcile(_:available:snapshot:)``), because three things about them are the tree's: a ``ExportRoster/Content-swift.enum/latest(apps:now:)`` document
/// takes its revision from the one on disk, a roster in a diagnostic keeps its files byte for byte, and every
/// document leaves out the icons the tree does not hold.
struct ExportPlan {
    /// A roster whose inputs are the ones the last pass rendered its files from: reused when they are all still as
    /// that pass left them, rendered otherwise.
    struct Candidate {
        var roster: ExportRoster
        /// What the last pass rendered for it.
        var memo: ExportMemory.Rendered
        /// Its documents' lines of `index.json`, with the remembered revisions.
        var entries: [ExportIndexEntry]
    }

    /// A roster whose documents this pass renders.
    struct Rendering {
        /// As given: its deferred apps are built, and its icons limited to the tree's, when it is rendered.
        var roster: ExportRoster
        /// Host, storefront and language: its key in ``ExportMemory``.
        var key: String
        /// Its documents, in platform order.
        var documents: [Document] = []
    }

    /// One document of a ``Rendering``.
    struct Document {
        var platform: Platform
        /// Relative to `v1/`.
        var path: String
        /// The files the writer's renderers render beside it, one per renderer, in their order.
        var beside: [String]
    }

    /// A file rendered once per host (``HostFileRenderer``), from the first of its rosters the renderer has something
    /// to say for, or kept as written earlier.
    struct HostFile {
        var path: String
        var renderer: any HostFileRenderer
        /// The host's rosters, in the order given.
        var rosters: [ExportRoster]
    }

    /// A mirrored icon the rosters reference (or the caller knows of), with its bytes when they were given.
    struct Icon {
        var path: String
        var bytes: Data?
    }

    /// The rosters to render, in the order given.
    var rendering: [Rendering] = []
    /// The rosters whose inputs are the last pass's, in the order given.
    var candidates: [Candidate] = []
    /// The files rendered once per host, in host order.
    var hostFiles: [HostFile] = []
    /// The icons, in path order.
    var icons: [Icon] = []
    /// Rosters that cannot be exported (unsafe names, a document another roster exports).
    var errors: [ExportError] = []
    /// The lines of `index.json`'s `diagnostics`.
    var diagnostics: [ExportDiagnostic] = []
    /// What the candidates were rendered from, by roster key.
    var reused: [String: ExportMemory.Rendered] = [:]
    /// The icons the candidates' documents reference.
    var reusedIcons = Set<String>()
    /// The rosters with current content that are rendered (``ExportReport/rostersRendered``).
    var renderedCount = 0

    /// Every file the rendered rosters and the hosts call for (documents, the files beside them, host files; not the
    /// `.gz` copies), in plan order.
    var paths: [String] {
        rendering.flatMap { $0.documents.flatMap { [$0.path] + $0.beside } } + hostFiles.map(\.path)
    }
}
