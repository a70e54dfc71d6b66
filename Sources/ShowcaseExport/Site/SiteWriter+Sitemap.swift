import DirectorySafety
import FoundationEssentials
import ShowcaseCore

extension SiteWriter {
    /// `showcase.css`, planned like a page (its inputs are its bytes).
    func stylesheet(pass: Pass, memory: SiteMemory) -> [PlannedFile] {
        planFile(SiteStylesheet.fileName, Data(SiteStylesheet.bytes), gzip: pass.gzip)
    }

    /// What writing the sitemap left: every file it wanted (with `.gz`), those that failed, and its names.
    struct Sitemaps {
        var paths: [String] = []
        var failed: [String] = []
        var names: [String] = []
    }

    /// Writes the sitemap files for `pages` part by part as each fills (a part is dropped once written; the first is
    /// held until a second shows it is one of several), the index last. Each page's `lastmod` is its file's mtime (a
    /// page is written only when its bytes change, so that is when its content did); a page whose file is not there
    /// (its write failed) is left out. Nil when the manifest could not be written.
    func writeSitemap(
        _ pages: [SitePage], layout: SiteLayout, pass: Pass, listed: inout ExportManifest, memory: inout SiteMemory,
        report: inout ExportReport
    ) -> Sitemaps? {
        let frame = SitePageFrame(siteURL: settings.url, labels: labels)
        let sitemap = Sitemap(siteURL: settings.url, limit: sitemapLimit)
        var done = Sitemaps()
        var parts: [(name: String, modified: Date?)] = []
        var held: Sitemap.Part?
        func emit(_ name: String, _ bytes: [UInt8], listed: inout ExportManifest) -> Bool {
            var files = planFile(name, Data(bytes), gzip: pass.gzip)
            guard list(files.map(\.path), in: &listed, pass: pass, report: &report) else { return false }
            publish(&files, pass: pass, memory: &memory, report: &report)
            settle(files, inputs: [:], memory: &memory)
            done.paths += files.map(\.path)
            done.failed += files.filter(\.failed).map(\.path)
            done.names.append(name)
            return true
        }
        func emitPart(_ part: Sitemap.Part, listed: inout ExportManifest) -> Bool {
            let name = "sitemap-\(parts.count + 1).xml"
            parts.append((name, part.modified))
            return emit(name, part.bytes, listed: &listed)
        }
        var builder = Sitemap.Builder(sitemap)
        for page in pages {
            guard let identity = pass.files.identity(of: page.file) else { continue }
            let editions = (layout.existence[page.kind] ?? []).map { layout.editions[$0].edition }
            var alternates = editions.map { ($0.tag, frame.url(of: SitePage(kind: page.kind, edition: $0))) }
            if let first = editions.first {
                alternates.append(("x-default", frame.url(of: SitePage(kind: page.kind, edition: first))))
            }
            let entry = Sitemap.Entry(
                url: frame.url(of: page), modified: Date(timeIntervalSince1970: Double(identity.modified) / 1e9),
                alternates: alternates)
            guard let full = builder.add(entry) else { continue }
            if parts.isEmpty, held == nil {
                held = full
                continue
            }
            if let first = held {
                held = nil
                guard emitPart(first, listed: &listed) else { return nil }
            }
            guard emitPart(full, listed: &listed) else { return nil }
        }
        let last = builder.finish()
        guard !parts.isEmpty || held != nil else {
            return emit("sitemap.xml", last.bytes, listed: &listed) ? done : nil
        }
        for part in [held, last].compactMap({ $0 }) {
            guard emitPart(part, listed: &listed) else { return nil }
        }
        let index = sitemap.index(parts, indexModified: pass.now)
        return emit("sitemap.xml", index, listed: &listed) ? done : nil
    }

    /// What the sitemap files are built from, hashed: each page's file and mtime (its `lastmod`), the editions each
    /// kind of page exists in (its alternates), the site's URL, the limits and gzip.
    func sitemapInputs(_ pages: [SitePage], layout: SiteLayout, pass: Pass) -> Int {
        var hasher = Hasher()
        hasher.combine(settings.url)
        hasher.combine(sitemapLimit)
        hasher.combine(pass.gzip)
        hasher.combine(layout.editions.map(\.edition))
        var kinds = Set<SitePageKind>()
        for page in pages {
            hasher.combine(page.file)
            hasher.combine(pass.files.identity(of: page.file)?.modified)
            if kinds.insert(page.kind).inserted {
                hasher.combine(page.kind)
                hasher.combine(layout.existence[page.kind] ?? [])
            }
        }
        return hasher.finalize()
    }

    /// The sitemap files `names` (and their `.gz`) when each still holds what the last pass left, with the memory
    /// brought up to date; nil when one does not.
    func stillHold(_ names: [String], pass: Pass, memory: inout SiteMemory) -> Set<String>? {
        var held = Set<String>()
        for name in names {
            guard let memo = memory.files[name], let now = stillHolds(name, memo, pass: pass) else { return nil }
            memory.files[name] = now
            held.insert(name)
            if pass.gzip { held.insert(name + ".gz") }
        }
        return held
    }

    /// After publishing: each planned file's memory holds the inputs it was rendered from and, when the file holds
    /// its bytes, the identities seen; a failed one is forgotten (rendered again next time).
    func settle(_ files: [PlannedFile], inputs: [String: ContentDigest], memory: inout SiteMemory) {
        let failed = Set(files.filter(\.failed).map { $0.isGzip ? String($0.path.dropLast(3)) : $0.path })
        for file in files where !file.isGzip {
            guard !failed.contains(file.path) else {
                memory.files[file.path] = nil
                continue
            }
            let known = memory.files[file.path].flatMap { $0.digest == file.digest ? $0 : nil }
            memory.files[file.path] = SiteMemory.File(
                inputs: inputs[file.path] ?? file.digest, digest: file.digest, identity: known?.identity,
                gzipIdentity: known?.gzipIdentity)
        }
    }

    /// Removes the files the manifest lists that are no longer wanted, then writes the manifest without them (and
    /// without files that failed to be written for the first time).
    func removeUnwanted(
        wanted: Set<String>, failed: [String], listed: ExportManifest, pass: Pass, memory: inout SiteMemory,
        report: inout ExportReport
    ) {
        var final = listed
        for stale in listed.paths.subtracting(wanted).sorted() {
            switch pass.files.remove(stale) {
            case .removed:
                report.removed += 1
                final.paths.remove(stale)
            case .alreadyGone: final.paths.remove(stale)
            case .failed(let failure):
                report.add(
                    ExportError(
                        failure.unexpected == nil ? .removeFailed : .unexpectedEntry,
                        path: failure.unexpected ?? pass.path(stale),
                        "could not remove \(pass.path(stale)), a site file showcased wrote earlier and no longer "
                            + "needs: \(failure.reason); it stays listed and is retried on the next export"))
            }
            memory.files[stale] = nil
        }
        for path in failed where !pass.previous.paths.contains(path) { final.paths.remove(path) }
        if final != listed, let failure = pass.files.writeAtomically(final.encoded(), to: ExportManifest.fileName) {
            report.add(
                ExportError(
                    .writeFailed, path: pass.path(ExportManifest.fileName),
                    "could not update the site manifest: \(failure.reason); removed files stay listed, which is "
                        + "harmless, until a later export succeeds"))
        }
        if pass.files.hasChangedDirectories {
            if pass.files.syncFileSystem() == nil { pass.files.forgetChangedDirectories() }
            pass.files.syncDirectories()
        }
    }
}

extension SiteWriter {
    /// Removes every file the site manifest lists, then the manifest, when `export.site` is no longer configured
    /// (files it did not write stay, and so does `site/` when they do); a tree that never had a site is not touched.
    static func removeSite(directory: String, report: inout ExportReport) {
        guard let top = try? TrustedDirectory.open(directory), let site = top.entry("site"), site.kind == .directory,
            let files = try? FileSystem(directory: directory, tree: "site")
        else { return }
        let listed = ExportManifest(
            parsing: files.read(ExportManifest.fileName, limit: ExportWriter.readLimit)?.bytes ?? Data())
        var left = listed
        for path in listed.paths.sorted() {
            switch files.remove(path) {
            case .removed:
                report.removed += 1
                left.paths.remove(path)
            case .alreadyGone: left.paths.remove(path)
            case .failed(let failure):
                report.add(
                    ExportError(
                        failure.unexpected == nil ? .removeFailed : .unexpectedEntry,
                        path: failure.unexpected ?? directory + "/site/" + path,
                        "could not remove \(directory)/site/\(path) after export.site was removed: \(failure.reason); "
                            + "it is retried on the next export"))
            }
        }
        if left.paths.isEmpty {
            _ = files.remove(ExportManifest.fileName)
        } else if left != listed {
            _ = files.writeAtomically(left.encoded(), to: ExportManifest.fileName)
        }
        files.syncDirectories()
    }
}
