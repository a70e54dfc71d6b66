/// What one export did: files written, left unchanged and removed, and every failure as a value.
///
/// Counts are files, each `.json.gz` and `index.json` included, so "0 written" after an identical refresh
/// means nothing on disk changed (and every ETag stayed).
public struct ExportReport: Sendable, Hashable {
    /// The export directory (`export.directory`); documents live under its `v1/`.
    public var directory: String
    /// Files written because their bytes changed or they were new.
    public var written: Int
    /// Files whose bytes were already right: not touched, so their mtime and ETag stay.
    public var unchanged: Int
    /// Files showcased wrote earlier that are no longer wanted, removed.
    public var removed: Int
    /// Everything that failed; empty when the tree is current.
    public var errors: [ExportError]
    /// Files read back from disk to compare with what the export wants. With an ``ExportMemory`` that vouches for
    /// every file (nothing changed on disk since the last pass), 0: the figure that says the memory is used.
    public var filesRead = 0
    /// Icons the rosters referenced that are neither in the tree nor were given to the pass (removed by someone,
    /// or a foreign file at their name, or their write failed): left out of the documents. The daemon forgets
    /// them in its icon index, so they are fetched again.
    public var missingIcons: Set<String> = []
    /// Rosters whose files were not rendered again: their ``ExportRoster/fingerprint`` was the one the last pass
    /// rendered, and every file was still as it left them.
    public var rostersReused = 0
    /// Rosters whose documents were built and rendered in this pass (current content that could not be reused).
    public var rostersRendered = 0
    /// Site pages (SPEC §18) rendered in this pass: those whose inputs changed, or whose file did not hold what the
    /// last pass left there.
    public var pagesRendered = 0
    /// Site pages neither rendered nor written: their inputs were the last pass's and their file still held its bytes.
    public var pagesReused = 0

    /// A report of counts and errors.
    public init(directory: String, written: Int = 0, unchanged: Int = 0, removed: Int = 0, errors: [ExportError] = []) {
        self.directory = directory
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
        self.errors = errors
    }

    /// Adds `error` unless the same failure of the same entry is there already (a planted link under a storefront
    /// folder fails every document in it: one error says so).
    mutating func add(_ error: ExportError) {
        if !errors.contains(error) { errors.append(error) }
    }

    /// True when every wanted file is current and every unwanted one is gone.
    public var succeeded: Bool { errors.isEmpty }

    /// One line for the log: `exported to DIR: 2 written, 344 unchanged, 0 removed` and the error count.
    public var summary: String {
        var line = "exported to \(directory): \(written) written, \(unchanged) unchanged, \(removed) removed"
        if !errors.isEmpty { line += ", \(errors.count) \(errors.count == 1 ? "error" : "errors")" }
        return line
    }
}
