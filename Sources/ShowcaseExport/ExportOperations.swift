import FoundationEssentials

/// What reconciling part of an ``ExportPlan`` with the tree (``ExportSnapshot``) came to, before anything is written:
/// each wanted file that is ours, to write (new, or its bytes differ) or to keep (it holds them already), and the
/// foreign files at wanted paths, refused (the listed files nothing wants any more are
/// ``ExportWriter/stale(_:rendered:snapshot:)``). With them, what rendering the plan's rosters gave: the index entries of their documents, what each was rendered from, and the
/// icons they reference.
struct ExportOperations {
    /// What the apply phase does with one file.
    enum Action: Equatable {
        /// Stage its bytes, flush, rename over the target.
        case write
        /// Leave it: it holds the wanted bytes. Remember it as given (nil: it had not settled, so it is read again
        /// next pass).
        case keep(remembering: ExportMemory.File?)

        static func == (lhs: Action, rhs: Action) -> Bool {
            switch (lhs, rhs) {
            case (.write, .write): true
            case (.keep(let left), .keep(let right)): left?.identity == right?.identity
            default: false
            }
        }
    }

    /// Every wanted file that is ours, in the order they are published (path order, each `.gz` after its file).
    var files: [PlannedFile] = []
    /// For each of ``files``, what to do with it.
    var actions: [Action] = []
    /// A foreign file at a wanted path, each: left alone and reported (``ExportError/Code/foreignFile``).
    var refused: [ExportError] = []
    /// The rendered documents' lines of `index.json`.
    var entries: [ExportIndexEntry] = []
    /// What each rendered roster was rendered from, by roster key.
    var rendered: [String: ExportMemory.Rendered] = [:]
    /// The icons the rendered documents reference.
    var icons = Set<String>()

    /// Adds `file`, to be handled as `action`.
    mutating func append(_ file: PlannedFile, _ action: Action) {
        files.append(file)
        actions.append(action)
    }

    /// The paths of ``files``.
    var paths: [String] { files.map(\.path) }

    /// The paths of the files to write.
    var writes: [String] { zip(files, actions).filter { $0.1 == .write }.map(\.0.path) }

    /// The paths of the files to keep.
    var keeps: [String] { zip(files, actions).filter { $0.1 != .write }.map(\.0.path) }
}
