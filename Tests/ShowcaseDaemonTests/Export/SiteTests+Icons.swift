import Foundation
import Testing

/// SPEC §16 and §18 through the binary: with `export.icons` the site's pages show mirrored icons for every app they
/// list, the host app's own page included (no document lists the host), in `showcased --once` and in the daemon.
extension SiteTests {
    static let tideLogId = 1_641_000_101

    /// A bed exporting TideLog in us with a site, and with `icons` 128 px icons, artwork served by the replay.
    func usBed(icons: Bool) throws -> TestBed {
        let bed = try TestBed()
        bed.hosts = [TestBed.tideLog]
        bed.storefronts = ["us"]
        if icons {
            bed.replay.serveArtworkHere(true)
            bed.lookupLines = ["artwork_hosts: [\"\(bed.replay.artworkPrefix)\"]"]
        }
        bed.extra = """
            export:
              directory: \(bed.exportDirectory.path)
              gzip: false
            """ + (icons ? "\n  icons:\n    sizes: [128]" : "") + "\n  site:\n    url: https://example.com/apps/\n"
        try bed.writeConfig()
        return bed
    }

    /// The mirrored icon paths (`icons/….png`) the host app's page shows in `<img>` and `og:image`; fails the test
    /// when the page links the artwork host or shows no mirrored icon.
    func hostPageIcons(_ bed: TestBed) throws -> (image: Set<String>, openGraph: Set<String>) {
        let page = try text(bed, "site/us/\(Self.tideLogId)/index.html")
        #expect(!page.contains(bed.replay.artworkPrefix), "the host's page links the artwork host")
        func icons(after marker: String) -> Set<String> {
            Set(
                page.components(separatedBy: marker).dropFirst().compactMap { rest -> String? in
                    let url = rest.prefix { $0 != "\"" }
                    guard let found = url.range(of: "/v1/icons/") else { return nil }
                    return "icons/" + url[found.upperBound...]
                })
        }
        return (icons(after: "<img src=\""), icons(after: "<meta property=\"og:image\" content=\""))
    }

    @Test("the host app's page shows its mirrored icon (img and og:image), in --once and in the daemon, and keeps it")
    func hostIconMirrored() throws {
        let bed = try usBed(icons: true)
        let run = try OneShotRun.run(bed)
        #expect(run.status == 0, "\(run)")
        let once = try hostPageIcons(bed)
        #expect(!once.image.isEmpty && once.openGraph == once.image, "\(once)")
        for path in once.image {
            #expect(FileManager.default.fileExists(atPath: bed.exported(path).path), "\(path) is not in the tree")
        }
        for page in siteFiles(bed) where page.hasSuffix(".html") {
            #expect(!(try text(bed, page)).contains(bed.replay.artworkPrefix), "\(page) links the artwork host")
        }

        // The daemon, from the same cache and state: two passes keep the host's icon in the tree and on its page.
        try bed.start()
        try bed.waitUntilWarm()
        #expect(try bed.export().error == nil)
        #expect(try bed.export().error == nil)
        let daemon = try hostPageIcons(bed)
        #expect(daemon.image == once.image && daemon.openGraph == once.image, "\(daemon)")
        for path in daemon.image {
            #expect(FileManager.default.fileExists(atPath: bed.exported(path).path), "\(path) left the tree")
        }
    }

    @Test("a daemon started without a cache mirrors the host app's icon for its site page")
    func hostIconMirroredByDaemon() throws {
        let bed = try usBed(icons: true)
        try bed.start()
        try bed.waitUntilWarm()
        var shown: (image: Set<String>, openGraph: Set<String>) = ([], [])
        do {
            try waitFor(timeout: .seconds(30)) {
                try bed.export()
                shown = try hostPageIcons(bed)
                return !shown.image.isEmpty
            }
        } catch {
            throw HarnessError("the host's icon never appeared on its page: \(bed.daemon?.log ?? "")")
        }
        #expect(shown.openGraph == shown.image)
        for path in shown.image {
            #expect(FileManager.default.fileExists(atPath: bed.exported(path).path), "\(path) is not in the tree")
        }
    }
}
