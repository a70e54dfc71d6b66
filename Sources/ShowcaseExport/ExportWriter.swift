import FoundationEssentials
import ShowcaseCore

/// Brings `<directory>/v1/` to exactly the documents a set of rosters calls for, and says what it did.
///
/// This is the export's one entry point: the daemon hands it every configured roster's ``ExportRoster`` after a
/// new revision, a reload or `Admin.Export`, and logs the ``ExportReport``. The rules it keeps:
///
/// - **Only changed bytes are written**, each atomically (a temporary file in the same directory, flushed to
///   disk, renamed over the old one; then the renames flushed), so an unchanged document keeps its mtime and
///   nginx its ETag, and a reader never sees half a file. The flushes are one syncfs(2) per export, not an fsync
///   per file: on ext4 each fsync is a journal commit, and a pass's flushing must not grow with its files.
/// - **Unchanged files are known without reading them back** when the caller keeps an ``ExportMemory`` across
///   passes (the daemon does): a file whose inode, size, mtime and ctime are as the last pass saw them holds what
///   that pass saw, so one `lstat` and a digest of the wanted bytes decide. Anything else is read and compared.
/// - **What changed lands first**: rosters whose inputs differ from the last pass's are rendered and published
///   before the files of the unchanged ones are checked (`lstat`), so one developer's reload is not held back by
///   the whole tree; an unchanged roster with a file changed on disk is rendered and published after, in the same
///   pass, before `index.json`.
/// - With ``gzip``, `NAME.json.gz` (the same bytes, deterministic gzip) sits beside every document and
///   `index.json`, for nginx's `gzip_static`.
/// - **Nothing it did not write is touched**: `v1/.showcase-manifest` lists every file it wrote; only those are
///   ever replaced or removed. A foreign file where a document belongs is reported, not overwritten.
/// - Documents of rosters no longer configured (or ``ExportRoster/Content-swift.enum/absent``) are removed; a
///   roster in a diagnostic (``ExportRoster/Content-swift.enum/keepLastGood(revision:)``) keeps its documents
///   byte for byte.
/// - **Revisions live in the documents**: for ``ExportRoster/Content-swift.enum/latest(apps:now:)`` each document
///   keeps the revision on disk while its apps are unchanged and takes the next one when they change, so a
///   restart never renumbers the tree and one platform's change never touches the other's document.
/// - **Failures are values** in the report (full disk, permissions): never a throw or a trap.
///
/// Calls for one directory must not overlap (the daemon runs exports one at a time); the files' mode is 0644
/// and new directories' 0755, so a web server's user can read what the daemon's user writes.
public struct ExportWriter: Sendable {
    /// `export.directory`: documents go to its `v1/`.
    public var directory: String
    /// `export.gzip`: also keep a `.json.gz` beside each document.
    public var gzip: Bool
    /// The files rendered beside each document (`.html`, `.email.html`, `.atom`), written by the same rules.
    public var renderers: [any DocumentRenderer]
    /// The files rendered once per host (`<host>/banner.html`).
    public var hostRenderers: [any HostFileRenderer]
    /// `export.public_url`, for the renderers' ``RenderContext``.
    public var publicURL: String
    /// `export.site`: the static site written after the documents, from the same rosters; nil for none.
    public var site: SiteWriter?

    /// A writer for `directory` (absolute, as the configuration resolved it), writing each document's JSON and
    /// what `renderers` and `hostRenderers` render beside it.
    public init(
        directory: String, gzip: Bool = true, renderers: [any DocumentRenderer] = [],
        hostRenderers: [any HostFileRenderer] = [], publicURL: String = "/showcase/v1/", site: SiteWriter? = nil
    ) {
        self.site = site
        self.directory = directory
        self.gzip = gzip
        self.renderers = renderers
        self.hostRenderers = hostRenderers
        self.publicURL = publicURL
    }

    /// The tree's root, `<directory>/v1`.
    public var root: String { PathText.appending("v1", to: directory) }

    /// Largest file the writer reads back to compare (a document of 200 apps is a few hundred KiB).
    static let readLimit = 64 << 20

    /// Brings the tree up to date with `rosters` (every configured roster: one missing here counts as no longer
    /// configured, and its documents are removed), reading back every file it compares.
    public func export(_ rosters: [ExportRoster]) -> ExportReport {
        var memory = ExportMemory()
        return export(rosters, remembering: &memory)
    }

    /// Brings the tree up to date with `rosters`, as ``export(_:)``, trusting what `memory` remembers of files
    /// that have not changed since (``ExportMemory``) instead of reading them back, and leaving in it what this
    /// pass saw. The daemon passes the same memory to every pass into the same directory.
    public func export(_ rosters: [ExportRoster], remembering memory: inout ExportMemory) -> ExportReport {
        export(rosters, icons: [:], remembering: &memory)
    }

    /// Brings the tree up to date with `rosters`, as ``export(_:remembering:)``, storing the mirrored icons their
    /// apps reference (SPEC §16): `icons` holds the bytes of icons fetched since the last pass, by path
    /// (`icons/<digest>.<ext>`), and `known` every icon path the apps may name (those of deferred rosters cannot be
    /// seen before they are built); an icon neither in the tree nor given is left out of the documents and listed
    /// in ``ExportReport/missingIcons``.
    public func export(
        _ rosters: [ExportRoster], icons fetched: [String: Data], known: Set<String> = [],
        remembering memory: inout ExportMemory
    ) -> ExportReport {
        // Plan (no file system), then reconcile against one snapshot of the tree and apply, in three rounds: what
        // changed first, so a change lands without waiting for a look at every file of the tree; then the rosters
        // whose inputs are the last pass's (one `lstat` per file); then index.json, and the stale files removed.
        var report = ExportReport(directory: directory)
        guard let snapshot = self.snapshot(memory: memory, into: &report) else { return report }
        let plan = self.plan(rosters, known: known, fetched: fetched, memory: memory)
        var pass = ExportPass(plan, snapshot: snapshot, directory: directory)
        guard let icons = publishChanged(plan, pass: &pass) else { return pass.report }
        publishUnchanged(plan, available: icons.available, memory: memory, pass: &pass)
        let index = publishIndex(plan, pass: &pass)
        pass.snapshot.files.releaseReplaced()
        removeAndRelist(plan, rosters: rosters, icons: icons, index: index.files, pass: &pass)
        flush(pass.snapshot.files)
        pass.report.filesRead = pass.snapshot.existing.readCount

        var siteMemory = memory.site
        if let site {
            site.write(
                rosters.map { $0.keepingIcons(in: icons.available) }, directory: directory, gzip: gzip,
                publicURL: publicURL, now: memory.clock.now, memory: &siteMemory, report: &pass.report)
        } else if siteMemory.root != nil || memory.root == nil {
            // No site configured: one written earlier goes (checked once per process, then after a site pass).
            SiteWriter.removeSite(directory: directory, report: &pass.report)
            siteMemory = SiteMemory()
        }
        // A roster any of whose files failed is rendered again next time, whatever its fingerprint.
        let failed = Set(
            (pass.published + index.files).filter(\.failed).map { $0.isGzip ? String($0.path.dropLast(3)) : $0.path })
        let rendered = pass.rendered.filter { _, memo in memo.files.keys.allSatisfy { !failed.contains($0) } }
        memory = ExportMemory(
            root: root, files: pass.remembered, rendered: rendered, manifest: pass.manifest, clock: memory.clock)
        memory.site = siteMemory
        return pass.report
    }

    /// `relative` (to `v1/`) as an absolute path.
    func path(_ relative: String) -> String { root + "/" + relative }

    /// The first round: the icons, then the changed rosters' documents, each file listed in the manifest before it
    /// can first exist (a crash never leaves one of ours unlisted); nil, with the report saying so, when the manifest
    /// could not be written, so nothing was. Icons go first, so a document never references one that is not there
    /// yet; one that could not be written is left out of the documents, reconciled again without it.
    private func publishChanged(_ plan: ExportPlan, pass: inout ExportPass) -> IconPlan? {
        var icons = reconcile(plan.icons, snapshot: &pass.snapshot)
        pass.refuse(icons.operations.refused)
        pass.report.errors += plan.errors
        var changed = reconcile(plan, available: icons.available, snapshot: &pass.snapshot)
        pass.refuse(changed.refused)
        // The list only grows here, so what it gained says whether it changed (a tree of 55,000 files is not compared
        // whole).
        if let failure = pass.list(changed.paths + icons.operations.paths + indexPaths) {
            pass.report.errors.append(
                manifestFailed(
                    "write", failure,
                    "nothing was exported (free some space or fix the directory's permissions, then export again)"))
            return nil
        }
        apply(&icons.operations, pass: &pass, flushingEach: false)
        let failedIcons = Set(icons.operations.files.filter(\.failed).map(\.path))
        if !failedIcons.isEmpty {
            icons.missing.formUnion(failedIcons)
            changed = reconcile(plan, available: icons.available, snapshot: &pass.snapshot)
            pass.refuse(changed.refused)
        }
        pass.report.missingIcons = icons.missing
        apply(&changed, pass: &pass, flushingEach: false)
        pass.absorb(changed)
        return icons
    }

    /// The second round: the rosters whose inputs are the last pass's. One whose files are all as the last pass left
    /// them is reused as it is; one with a file changed by someone else (edited, replaced, removed) is planned,
    /// reconciled and published now, its icons limited to `available`.
    private func publishUnchanged(
        _ plan: ExportPlan, available: Set<String>, memory: ExportMemory, pass: inout ExportPass
    ) {
        let checked = verify(plan.candidates, snapshot: pass.snapshot)
        if !checked.changed.isEmpty {
            let again = self.plan(checked.changed, memory: memory, reusing: false)
            pass.report.errors += again.errors
            var more = reconcile(again, available: available, snapshot: &pass.snapshot)
            pass.refuse(more.refused)
            if let failure = pass.list(more.paths) {
                // Not listed: each stays as it is and its roster is rendered again next time.
                for index in more.files.indices { more.files[index].failed = true }
                pass.report.errors.append(
                    manifestFailed(
                        "write", failure,
                        "the files of \(checked.changed.count) rosters changed by someone else stay as they are "
                            + "until a later export succeeds"))
            }
            apply(&more, pass: &pass, flushingEach: false)
            pass.absorb(more)
            pass.renderedCount += again.renderedCount
        }
        pass.report.rostersReused = checked.reused.count
        pass.report.rostersRendered = pass.renderedCount
        pass.report.unchanged += checked.files.count
        // The files of reused rosters are known to hold what they should: remembered as they are, never planned.
        pass.remembered.merge(checked.files) { published, _ in published }
        pass.reused = checked.files
        pass.reusedEntries = checked.reused.flatMap(\.entries)
    }

    /// The last round: index.json, built from what the documents came to (so it lists only documents that exist as
    /// this pass wrote or kept them, and a reader that follows it finds them there), each file flushed on its own.
    private func publishIndex(_ plan: ExportPlan, pass: inout ExportPass) -> ExportOperations {
        let present = Set(pass.published.filter { !$0.failed && !$0.isGzip }.map(\.path))
        let index = ExportIndex(
            documents: pass.entries.filter { present.contains($0.path) } + pass.reusedEntries,
            diagnostics: plan.diagnostics
        ).encoded()
        let file = PlannedFile(path: "index.json", source: index, digest: ContentDigest(index), isGzip: false)
        var operations = self.operations(for: withGzip([file]), snapshot: &pass.snapshot)
        pass.refuse(operations.refused)
        apply(&operations, pass: &pass, flushingEach: true)
        return operations
    }

    /// Removes the stale files — those reconciling the plan found no part of it wants, and the listed icons no
    /// document references after all — and leaves the manifest listing every file wanted and every stale one that
    /// could not be removed.
    private func removeAndRelist(
        _ plan: ExportPlan, rosters: [ExportRoster], icons: IconPlan, index: [PlannedFile], pass: inout ExportPass
    ) {
        let previous = pass.snapshot.previous
        // Icons stay while a document references them: a current one, or one kept byte for byte.
        let keptIcons = Self.iconsInKeptDocuments(rosters, planned: pass.published).filter {
            previous.paths.contains($0)
        }
        let wantedIcons = pass.icons.intersection(icons.available).union(keptIcons)
        let staleIcons = plan.icons.map(\.path).filter { previous.paths.contains($0) && !wantedIcons.contains($0) }
        let stale = self.stale(plan, rendered: pass.published, reused: pass.reused, snapshot: pass.snapshot)
        let gone = remove(Set(stale + staleIcons).sorted(), pass: &pass)
        // Wanted: the reused rosters' files, and what this pass planned (few, after a small change).
        let plannedWanted = Set((pass.published + index).map(\.path)).union(wantedIcons)
        // A file that failed to be written for the first time does not exist: it leaves the list again.
        let absentAfterFailure = Set(
            (pass.published + index + icons.operations.files).filter { $0.failed && !previous.paths.contains($0.path) }
                .map(\.path))
        // The final list is the list as it was, less what is gone, what was listed for this pass but is not wanted
        // after all, and what failed to be written for the first time; plus anything wanted that was never listed.
        let dropped = gone.union(pass.added.filter { pass.reused[$0] == nil && !plannedWanted.contains($0) })
            .union(absentAfterFailure)
        var unlisted = plannedWanted.filter { !pass.listed.paths.contains($0) }.subtracting(absentAfterFailure)
        // A reused roster's files are listed already: the last pass listed them in the manifest it left, and a
        // manifest changed since (someone edited it) was read again, so only then can one be missing.
        if !pass.snapshot.manifestTrusted {
            unlisted.formUnion(pass.reused.keys.filter { !pass.listed.paths.contains($0) })
        }
        relist(dropping: dropped, adding: unlisted, pass: &pass)
    }
}
