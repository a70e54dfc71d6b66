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

    /// Writes `name` (and its `.gz`) with `bytes` into `done`, listing it first; false when the manifest could not
    /// be written.
    func emitSitemap(
        _ name: String, _ bytes: [UInt8], into done: inout Sitemaps, pass: Pass, listed: inout ExportManifest,
        memory: inout SiteMemory, report: inout ExportReport
    ) -> Bool {
        var files = planFile(name, Data(bytes), gzip: pass.gzip)
        guard list(files.map(\.path), in: &listed, pass: pass, report: &report) else { return false }
        publish(&files, pass: pass, memory: &memory, report: &report)
        settle(files, inputs: [:], memory: &memory)
        done.paths += files.map(\.path)
        done.failed += files.filter(\.failed).map(\.path)
        done.names.append(name)
        return true
    }

    /// `page`'s sitemap entry, its `lastmod` its file's mtime (a page is written only when its bytes change, so that
    /// is when its content did); nil when its file is not there (its write failed).
    func sitemapEntry(
        _ page: SitePage, frame: SitePageFrame, layout: SiteLayout, pass: Pass, links: inout SitemapLinks
    ) -> Sitemap.Entry? {
        guard let identity = pass.files.rememberedIdentity(of: page.file) else { return nil }
        let shared: [UInt8]
        if let known = links.byKind[page.kind] {
            shared = known
        } else {
            let editions = (layout.existence[page.kind] ?? []).map { layout.editions[$0].edition }
            var alternates = editions.map { ($0.tag, frame.url(of: SitePage(kind: page.kind, edition: $0))) }
            if let first = editions.first {
                alternates.append(("x-default", frame.url(of: SitePage(kind: page.kind, edition: first))))
            }
            shared = Sitemap.links(alternates)
            links.byKind[page.kind] = shared
        }
        return Sitemap.Entry(
            url: frame.url(of: page), modified: Date(timeIntervalSince1970: Double(identity.modified) / 1e9),
            links: shared)
    }

    /// The alternates of each kind of page entered so far, which all its pages share: kept for one group of the
    /// sitemap (a developer's apps: tens of kinds), or one file.
    struct SitemapLinks {
        var byKind: [SitePageKind: [UInt8]] = [:]
    }

    /// The bytes of `sitemap.xml` as the one file for `pages`; nil when they do not fit one file.
    func oneFile(_ pages: [SitePage], layout: SiteLayout, pass: Pass) -> [UInt8]? {
        let frame = SitePageFrame(siteURL: settings.url, labels: labels)
        var builder = Sitemap.Builder(Sitemap(siteURL: settings.url, limit: sitemapLimit))
        var links = SitemapLinks()
        for page in pages {
            guard let entry = sitemapEntry(page, frame: frame, layout: layout, pass: pass, links: &links) else {
                continue
            }
            guard builder.add(entry) == nil else { return nil }
        }
        return builder.finish().bytes
    }

    /// Whether the sitemap of `pages` surely fits one file: within the URL limit, and with every link at its
    /// longest (a language tag, an app id and a page's folder: 200 bytes besides the site's URL, escaped, twice)
    /// within the byte limit.
    func fitsOneFile(_ pages: [SitePage], layout: SiteLayout) -> Bool {
        guard pages.count <= max(1, sitemapLimit) else { return false }
        let links = pages.reduce(0) { $0 &+ 2 &+ (layout.existence[$1.kind]?.count ?? 0) }
        let longest = 200 + 2 * XMLText.escaped(settings.url).utf8.count
        return links.multipliedReportingOverflow(by: longest).partialValue <= Sitemap.standardByteLimit
    }

    /// The pages by whose they are, in the site's order: the storefronts' developer pages, then each developer's
    /// pages (its apps', their support and privacy pages), named for the sitemap parts
    /// (`storefronts`, `artist-<id>`, `host-<bundle id>`).
    func sitemapGroups(_ pages: [SitePage], layout: SiteLayout) -> [(name: String, pages: [SitePage])] {
        var owners: [Int: String] = [:]
        for edition in layout.editions {
            for (id, index) in edition.owner where owners[id] == nil { owners[id] = edition.developers[index].key }
        }
        var order: [String] = []
        var groups: [String: [SitePage]] = [:]
        for page in pages {
            let name: String
            switch page.kind {
            case .developer: name = "storefronts"
            case .app(let id), .support(let id), .privacy(let id):
                // `artist:<id>` or `host:<bundle id>`: a file name as it is, its colon a hyphen.
                name = String(
                    (owners[id] ?? "other").unicodeScalars.map { scalar in
                        ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                            || scalar == "." ? Character(scalar) : "-"
                    })
            }
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(page)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// Writes the sitemap of a site too large for one file as `sitemap.xml`, an index of parts by developer (and
    /// by the limits within it, `sitemap-<group>-<n>.xml`, as `sitemap-artist-1641000001-1.xml`): a group whose
    /// pages, mtimes and editions are the ones its parts were built from, and whose parts are as the last pass left
    /// them, is kept; the others are built and written part by part as each fills (then dropped); the index last. Nil when the manifest could not be written.
    func writeSitemapIndex(
        _ pages: [SitePage], layout: SiteLayout, pass: Pass, listed: inout ExportManifest, memory: inout SiteMemory,
        report: inout ExportReport
    ) -> Sitemaps? {
        let frame = SitePageFrame(siteURL: settings.url, labels: labels)
        let sitemap = Sitemap(siteURL: settings.url, limit: sitemapLimit)
        var done = Sitemaps()
        var index: [(name: String, modified: Date?)] = []
        var remembered: [String: SiteMemory.SitemapGroup] = [:]
        for group in sitemapGroups(pages, layout: layout) {
            let inputs = sitemapInputs(group.pages, layout: layout, pass: pass, memory: memory)
            if let last = memory.sitemapGroups[group.name], last.inputs == inputs,
                let held = stillHold(last.parts.map(\.name), pass: pass, memory: &memory)
            {
                done.paths += held
                index += last.parts
                remembered[group.name] = last
                continue
            }
            let failed = done.failed.count
            var parts: [(name: String, modified: Date?)] = []
            var builder = Sitemap.Builder(sitemap)
            func emit(_ part: Sitemap.Part, listed: inout ExportManifest) -> Bool {
                let name = "sitemap-\(group.name)-\(parts.count + 1).xml"
                parts.append((name, part.modified))
                return emitSitemap(
                    name, part.bytes, into: &done, pass: pass, listed: &listed, memory: &memory, report: &report)
            }
            var links = SitemapLinks()
            for page in group.pages {
                guard let entry = sitemapEntry(page, frame: frame, layout: layout, pass: pass, links: &links),
                    let full = builder.add(entry)
                else { continue }
                guard emit(full, listed: &listed) else { return nil }
            }
            if !builder.isEmpty {
                guard emit(builder.finish(), listed: &listed) else { return nil }
            }
            index += parts
            if done.failed.count == failed {
                remembered[group.name] = SiteMemory.SitemapGroup(inputs: inputs, parts: parts)
            }
        }
        memory.sitemapGroups = remembered
        let bytes = sitemap.index(index, indexModified: pass.now)
        return emitSitemap(
            "sitemap.xml", bytes, into: &done, pass: pass, listed: &listed, memory: &memory, report: &report)
            ? done : nil
    }

    /// What the sitemap files are built from, hashed: each page's file and mtime (its `lastmod`), the editions each
    /// kind of page exists in (its alternates), the site's URL, the limits and gzip.
    /// A page this pass found as the memory remembers it has that identity's mtime; the others are asked.
    func sitemapInputs(_ pages: [SitePage], layout: SiteLayout, pass: Pass, memory: SiteMemory) -> Int {
        var hasher = Hasher()
        hasher.combine(settings.url)
        hasher.combine(sitemapLimit)
        hasher.combine(pass.gzip)
        hasher.combine(layout.editions.map(\.edition))
        var kinds = Set<SitePageKind>()
        for page in pages {
            hasher.combine(page.file)
            hasher.combine(
                memory.files[page.file]?.identity?.modified ?? pass.files.rememberedIdentity(of: page.file)?.modified)
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
