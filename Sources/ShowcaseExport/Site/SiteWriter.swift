import FoundationEssentials
import ShowcaseCore

/// Keeps `<export.directory>/site/` (SPEC §18) current: the developer page of every storefront and language with
/// apps, a page per app (and its support and privacy pages), `sitemap.xml` and `showcase.css`.
///
/// It runs at the end of each export pass (``ExportWriter/site``) over the same rosters, by the export's rules:
/// written atomically and only when the bytes change, a `.gz` beside each file with `gzip`, every file listed in
/// `site/.showcase-manifest` before it first exists, nothing it did not write replaced or removed, nothing followed.
/// A page whose inputs — the fingerprints of the rosters it shows, the editions it exists in, the site's settings —
/// are the ones the last pass rendered it from, and whose file is still as that pass left it, is not rendered
/// again (``ExportReport/pagesReused``); the rest are (``ExportReport/pagesRendered``). Pages of an edition with a
/// roster in a diagnostic stay byte for byte; pages no longer wanted (an app gone, a storefront without apps) are
/// removed.
public struct SiteWriter: Sendable {
    /// `export.site`.
    public var settings: SiteDescription
    /// The words the site writes itself, with the overlay's `labels`.
    public var labels: Labels
    /// URLs per sitemap file before `sitemap.xml` becomes an index (the protocol's 50,000; tests use fewer).
    public var sitemapLimit: Int

    /// Bytes of rendered pages held before they are written and dropped: a pass's memory is bounded by this, not
    /// by the site's size (tests use less).
    var batchLimit = 8 << 20
    /// Told the number of files (a `.gz` counts) each write holds at once, pages or sitemap parts (tests).
    var observer: (@Sendable (Int) -> Void)?

    /// A writer of the site `settings` describes.
    public init(settings: SiteDescription, labels: Labels = .builtIn, sitemapLimit: Int = 50_000) {
        self.settings = settings
        self.labels = labels
        self.sitemapLimit = sitemapLimit
    }

    /// The pass's surroundings: the export's directory and settings, and what the memory's clock says now.
    struct Pass {
        var directory: String
        var gzip: Bool
        var publicURL: String
        var now: Date
        var files: FileSystem
        var previous: ExportManifest

        /// `relative` (to `site/`) as an absolute path.
        func path(_ relative: String) -> String { directory + "/site/" + relative }
    }

    /// Brings `site/` up to date with `rosters` (every configured roster, as the export pass got them), adding what
    /// it did to `report` and leaving what it saw in `memory`.
    func write(
        _ rosters: [ExportRoster], directory: String, gzip: Bool, publicURL: String, now: Date,
        memory: inout SiteMemory, report: inout ExportReport
    ) {
        let files: FileSystem
        do {
            files = try FileSystem(directory: directory, tree: "site")
        } catch {
            report.add(
                ExportError(
                    error.isUnexpectedEntry ? .unexpectedEntry : .directoryUnusable, path: directory + "/site",
                    "cannot use the site directory \(directory)/site: \(error.message); create it writable by the "
                        + "daemon's user, or remove export.site"))
            return
        }
        let root = directory + "/site"
        if memory.root != root { memory = SiteMemory() }
        memory.root = root
        let read = files.read(ExportManifest.fileName, limit: ExportWriter.readLimit)
        let pass = Pass(
            directory: directory, gzip: gzip, publicURL: publicURL, now: now, files: files,
            previous: ExportManifest(parsing: read?.bytes ?? Data()))
        var layout = SiteLayout(
            rosters: rosters, memory: memory, listed: pass.previous.paths, pages: settings.pages)
        var listed = pass.previous
        guard let planned = plan(&layout, pass: pass, listed: &listed, memory: &memory, report: &report) else {
            return
        }
        // The sitemap lists every page with its alternates (hundreds of MB for a large site): built again only when
        // a page, its mtime or its editions changed, or its files are no longer as the last pass left them.
        var sitemaps = Sitemaps()
        let oneFileInputs =
            fitsOneFile(planned.pages, layout: layout)
            ? sitemapInputs(planned.pages, layout: layout, pass: pass, memory: memory)
            : nil
        if let inputs = oneFileInputs, let last = memory.sitemap, last.inputs == inputs,
            let held = stillHold(last.names, pass: pass, memory: &memory)
        {
            memory.sitemapGroups = [:]
            sitemaps.paths = Array(held)
        } else if let inputs = oneFileInputs, let bytes = oneFile(planned.pages, layout: layout, pass: pass) {
            memory.sitemapGroups = [:]
            guard
                emitSitemap(
                    "sitemap.xml", bytes, into: &sitemaps, pass: pass, listed: &listed, memory: &memory,
                    report: &report)
            else { return }
            memory.sitemap = sitemaps.failed.isEmpty ? (inputs, sitemaps.names) : nil
        } else {
            // Too large for one file: an index of parts by developer, so a change rebuilds only its developer's.
            memory.sitemap = nil
            guard
                let written = writeSitemapIndex(
                    planned.pages, layout: layout, pass: pass, listed: &listed, memory: &memory, report: &report)
            else { return }
            sitemaps = written
        }
        removeUnwanted(
            wanted: planned.wanted.union(sitemaps.paths), failed: planned.failed + sitemaps.failed, listed: listed,
            pass: pass, memory: &memory, report: &report)
        memory.facts = Dictionary(
            zip(rosters, layout.facts).compactMap { roster, facts in facts.map { (SiteLayout.key(of: roster), $0) } },
            uniquingKeysWith: { first, _ in first })
    }
}
