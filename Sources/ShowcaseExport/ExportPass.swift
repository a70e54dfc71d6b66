import FoundationEssentials

/// What an export pass has done so far, as the apply phase performs the reconciled operations
/// (``ExportWriter/apply(_:pass:flushingEach:)``): the report, the manifest as listed now, the files published and
/// what the next pass may trust of them.
struct ExportPass {
    /// What the pass did, so far.
    var report: ExportReport
    /// The tree and what the pass knows of it.
    var snapshot: ExportSnapshot
    /// The manifest as written now: the snapshot's, plus every file listed before it first exists.
    var listed: ExportManifest
    /// The paths this pass added to ``listed``.
    var added = Set<String>()
    /// What the next pass may trust: every file known to hold its bytes, by path.
    var remembered: [String: ExportMemory.File] = [:]
    /// The manifest for the next pass to trust: the snapshot's, until this pass rewrites it.
    var manifest: (identity: FileIdentity, listed: ExportManifest)?
    /// Every rendered file that is ours, kept or written (``PlannedFile/failed`` when the write failed).
    var published: [PlannedFile] = []
    /// The rendered documents' lines of `index.json`.
    var entries: [ExportIndexEntry] = []
    /// What each roster's files were rendered from, by roster key: the reused rosters' and the rendered ones'.
    var rendered: [String: ExportMemory.Rendered]
    /// The icons the documents of current rosters reference, rendered now or reused.
    var icons: Set<String>
    /// The rosters rendered (``ExportReport/rostersRendered``).
    var renderedCount: Int
    /// The files of the reused rosters, known to hold what they should.
    var reused: [String: ExportMemory.File] = [:]
    /// The reused rosters' lines of `index.json`.
    var reusedEntries: [ExportIndexEntry] = []

    /// A pass of `plan` over `snapshot`, nothing done yet.
    init(_ plan: ExportPlan, snapshot: ExportSnapshot, directory: String) {
        report = ExportReport(directory: directory)
        self.snapshot = snapshot
        listed = snapshot.previous
        manifest = snapshot.manifest
        rendered = plan.reused
        icons = plan.reusedIcons
        renderedCount = plan.renderedCount
    }

    /// Reports each refusal once.
    mutating func refuse(_ errors: [ExportError]) {
        for error in errors { report.add(error) }
    }

    /// Takes in the files of `operations`, as published, and what rendering them came to.
    mutating func absorb(_ operations: ExportOperations) {
        published += operations.files
        entries += operations.entries
        rendered.merge(operations.rendered) { _, rendered in rendered }
        icons.formUnion(operations.icons)
    }

    /// Lists `paths`, and writes the manifest when it gained any, before any of them can first exist; the failure
    /// when it could not be written.
    mutating func list(_ paths: [String]) -> FileSystem.Failure? {
        var gained = false
        for path in paths where listed.paths.insert(path).inserted {
            added.insert(path)
            gained = true
        }
        guard gained else { return nil }
        manifest = nil
        return snapshot.files.writeAtomically(listed.encoded(), to: ExportManifest.fileName)
    }
}
