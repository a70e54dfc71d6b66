import FoundationEssentials
import ShowcaseCore

extension SiteWriter {
    /// What a pass left under `site/`, by name only: its pages' bytes are written and dropped as it goes.
    struct Planned {
        /// Every page the site has now, rendered, reused or frozen: the sitemap's entries.
        var pages: [SitePage] = []
        /// Every file the pass wants (pages rendered or kept, frozen editions' pages, the stylesheet), with `.gz`.
        var wanted: Set<String> = []
        /// The files whose write failed.
        var failed: [String] = []
    }

    /// The rendered files waiting to be written: flushed once they hold ``SiteWriter/batchLimit`` bytes, so a pass
    /// holds a bounded number of pages whatever the site's size.
    struct Batch {
        var files: [PlannedFile] = []
        var inputs: [String: ContentDigest] = [:]
        var bytes = 0
    }

    /// Every page the layout calls for: reused when its inputs and its file are as the last pass left them, rendered
    /// otherwise and written batch by batch (then dropped); the stylesheet last. Nil when the manifest could not be
    /// written (nothing is then).
    func plan(
        _ layout: inout SiteLayout, pass: Pass, listed: inout ExportManifest, memory: inout SiteMemory,
        report: inout ExportReport
    ) -> Planned? {
        let renderer = SiteRenderer(settings: settings, tree: siteTree(pass.publicURL), labels: labels)
        var planned = Planned()
        let kinds = layout.editions.indices.map { self.kinds(in: $0, layout: layout) }
        // Every name first, so each is in the manifest before it can first exist.
        var names: [String] = stylesheet(pass: pass, memory: memory).map(\.path)
        for slot in layout.editions.indices where !layout.editions[slot].frozen {
            for kind in kinds[slot] {
                let file = SitePage(kind: kind, edition: layout.editions[slot].edition).file
                names += [file] + (pass.gzip ? [file + ".gz"] : [])
            }
        }
        guard list(names, in: &listed, pass: pass, report: &report) else { return nil }
        var batch = Batch()
        var developers: [Int: [Int: SiteRenderer.Developer]] = [:]
        var memo = InputsMemo()
        for slot in layout.editions.indices {
            let edition = layout.editions[slot].edition
            for kind in kinds[slot] {
                let page = SitePage(kind: kind, edition: edition)
                planned.pages.append(page)
                let names = [page.file] + (pass.gzip ? [page.file + ".gz"] : [])
                if layout.editions[slot].frozen {
                    planned.wanted.formUnion(names.filter { pass.previous.paths.contains($0) })
                    continue
                }
                planned.wanted.formUnion(names)
                let editions =
                    memo.existence[kind]
                    ?? (layout.existence[kind] ?? []).map { layout.editions[$0].edition }
                memo.existence[kind] = editions
                let inputs = self.inputs(
                    of: page, in: editions, layout: layout, slot: slot, pass: pass, memo: &memo)
                if let inputs, let memo = memory.files[page.file], memo.inputs == inputs,
                    let held = stillHolds(page.file, memo, pass: pass)
                {
                    memory.files[page.file] = held
                    report.pagesReused += 1
                    continue
                }
                var shown = developers[slot] ?? [:]
                let bytes = render(
                    page, in: editions, slot: slot, layout: &layout, developers: &shown, renderer: renderer)
                developers[slot] = shown
                report.pagesRendered += 1
                batch.inputs[page.file] = inputs ?? SiteWriter.neverEqual
                batch.files += planFile(page.file, Data(bytes), gzip: pass.gzip)
                batch.bytes += bytes.count
                if batch.bytes >= batchLimit {
                    flush(&batch, into: &planned, pass: pass, memory: &memory, report: &report)
                }
            }
            // A storefront's developers are not needed by the next one.
            developers[slot] = nil
        }
        batch.files += stylesheet(pass: pass, memory: memory)
        planned.wanted.formUnion(batch.files.map(\.path))
        flush(&batch, into: &planned, pass: pass, memory: &memory, report: &report)
        return planned
    }

    /// Writes `batch` and empties it, keeping in `planned` only the names of the files that failed.
    func flush(
        _ batch: inout Batch, into planned: inout Planned, pass: Pass, memory: inout SiteMemory,
        report: inout ExportReport
    ) {
        guard !batch.files.isEmpty else { return }
        publish(&batch.files, pass: pass, memory: &memory, report: &report)
        settle(batch.files, inputs: batch.inputs, memory: &memory)
        planned.failed += batch.files.filter(\.failed).map(\.path)
        batch = Batch()
    }

    /// A digest no rendering has: the inputs of a page whose rosters' fingerprints are unknown.
    static var neverEqual: ContentDigest {
        var digest = ContentDigest(Data())
        digest.count = -1
        return digest
    }

    /// The pages of edition `slot`: the developer page, then each app's pages in the developers' order; a frozen
    /// edition's as the manifest lists them.
    func kinds(in slot: Int, layout: SiteLayout) -> [SitePageKind] {
        let edition = layout.editions[slot]
        guard !edition.frozen else {
            return layout.existence.filter { $0.value.contains(slot) }.map(\.key)
                .sorted {
                    SitePage(kind: $0, edition: edition.edition).file
                        < SitePage(kind: $1, edition: edition.edition).file
                }
        }
        guard layout.existence[.developer]?.contains(slot) == true else { return [] }
        var kinds: [SitePageKind] = [.developer]
        for id in edition.developers.flatMap(\.apps) {
            kinds.append(.app(id))
            if settings.pages[id]?.support != nil { kinds.append(.support(id)) }
            if settings.pages[id]?.privacy != nil { kinds.append(.privacy(id)) }
        }
        return kinds
    }

    /// What every page's inputs share within a pass, worked out once: the settings and labels, and per kind of page
    /// the editions it exists in.
    struct InputsMemo {
        var common: String?
        var editions: [SitePageKind: String] = [:]
        /// The editions each kind of page exists in.
        var existence: [SitePageKind: [SiteEdition]] = [:]
    }

    /// The digest of everything `page` is rendered from; nil when a roster's fingerprint is unknown.
    func inputs(
        of page: SitePage, in editions: [SiteEdition], layout: SiteLayout, slot: Int, pass: Pass,
        memo: inout InputsMemo
    ) -> ContentDigest? {
        guard let prints = layout.fingerprints(of: page.kind, in: slot) else { return nil }
        let common =
            memo.common
            ?? {
                let overrides = labels.overrides.sorted { $0.key < $1.key }.map { tag, texts in
                    tag + ":"
                        + texts.sorted { $0.key.rawValue < $1.key.rawValue }.map { $0.key.rawValue + "=" + $0.value }
                        .joined(separator: "\u{3}")
                }
                let text = [settings.url, settings.title ?? "\u{0}", pass.publicURL].joined(separator: "\u{1}")
                return text + "\u{2}" + overrides.joined(separator: "\u{4}")
            }()
        memo.common = common
        let folders = memo.editions[page.kind] ?? editions.map(\.folder).joined(separator: ",")
        memo.editions[page.kind] = folders
        var text = common + "\u{1}" + page.file
        text += "\u{2}" + folders
        text += "\u{2}" + prints.map { $0.map(String.init).joined(separator: ".") }.joined(separator: ",")
        switch page.kind {
        case .developer, .app: break
        case .support(let id): text += "\u{2}" + (settings.pages[id]?.support ?? "")
        case .privacy(let id): text += "\u{2}" + (settings.pages[id]?.privacy ?? "")
        }
        if case .app(let id) = page.kind, let pages = settings.pages[id] {
            text += "\u{2}" + (pages.support == nil ? "-" : "s") + (pages.privacy == nil ? "-" : "p")
        }
        return ContentDigest(Data(text.utf8))
    }

    /// The bytes of `page`.
    func render(
        _ page: SitePage, in editions: [SiteEdition], slot: Int, layout: inout SiteLayout,
        developers: inout [Int: SiteRenderer.Developer], renderer: SiteRenderer
    ) -> [UInt8] {
        func developer(_ index: Int) -> SiteRenderer.Developer {
            if let known = developers[index] { return known }
            let made = layout.developer(index, in: slot)
            developers[index] = made
            return made
        }
        switch page.kind {
        case .developer:
            let shown = layout.editions[slot].developers.indices.map(developer).filter { !$0.apps.isEmpty }
            return renderer.developerPage(page, in: editions, developers: shown)
        case .app(let id), .support(let id), .privacy(let id):
            let owner = developer(layout.editions[slot].owner[id] ?? 0)
            guard let app = owner.apps.first(where: { $0.resolved.id == id }) else { return [] }
            switch page.kind {
            case .support(let id):
                return renderer.textPage(page, in: editions, app: app, markdown: settings.pages[id]?.support ?? "")
            case .privacy(let id):
                return renderer.textPage(page, in: editions, app: app, markdown: settings.pages[id]?.privacy ?? "")
            case .developer, .app: return renderer.appPage(page, in: editions, app: app, developer: owner)
            }
        }
    }

    /// Where `v1/` is served, as an absolute URL: `export.public_url` when it is one, else that path on the site's
    /// own origin (Open Graph needs an absolute image URL).
    func siteTree(_ publicURL: String) -> PublicTree {
        if publicURL.hasPrefix("https://") { return PublicTree(url: publicURL, isAbsolute: true) }
        let afterScheme = settings.url.dropFirst("https://".count)
        let origin = "https://" + afterScheme.prefix { $0 != "/" }
        return PublicTree(url: origin + (publicURL.hasPrefix("/") ? publicURL : "/" + publicURL), isAbsolute: true)
    }

    /// `path` with `bytes`, and its `.gz` (at zlib's fastest level) when gzip is on.
    func planFile(_ path: String, _ bytes: Data, gzip: Bool) -> [PlannedFile] {
        let digest = ContentDigest(bytes)
        let file = PlannedFile(path: path, source: bytes, digest: digest, isGzip: false)
        var compressed = PlannedFile(path: path + ".gz", source: bytes, digest: digest, isGzip: true)
        compressed.gzipLevel = Gzip.fastestLevel
        return gzip ? [file, compressed] : [file]
    }
}
