import Foundation
@preconcurrency import Glibc
import LookupReplay
import ShowcaseCore
import Testing

/// `showcased --once` with `export.icons` through the real binary against lookup-replay drawing the artwork (SPEC §17,
/// §16): the icons are in the tree and in every document, fragment and email of the first run, the report counts
/// them, a second run fetches none, and an icon refused or hanging is counted without changing the exit status.
@Suite("One-shot runs with icons", .serialized)
struct OneShotIconTests {
    /// A bed for Knotbook in us and de exporting JSON, fragments and email (an absolute `public_url`, which the email
    /// needs to show images) with icons at 128 px when `icons`, artwork served by the replay.
    func bed(icons: Bool = true) throws -> TestBed {
        let bed = try TestBed()
        bed.replay.serveArtworkHere(true)
        bed.lookupLines = ["artwork_hosts: [\"\(bed.replay.artworkPrefix)\"]"]
        try configure(bed, icons: icons)
        return bed
    }

    func configure(_ bed: TestBed, icons: Bool) throws {
        bed.extra = """
            export:
              directory: \(bed.exportDirectory.path)
              gzip: false
              html: true
              public_url: https://example.org/showcase/v1/
            """ + (icons ? "\n  icons:\n    sizes: [128]" : "")
        try bed.writeConfig()
    }

    /// A bed whose cache is warm (a run without icons), then with icons and an artwork host that answers no image
    /// request for 40 s, beyond which `lookup.timeout` (60 s) would only end it later: a run spends its time on icons.
    func hangingArtworkBed() throws -> TestBed {
        let bed = try bed(icons: false)
        let warm = try OneShotRun.run(bed)
        guard warm.status == 0 else { throw HarnessError("the warming run failed: \(warm)") }
        bed.timeout = "60s"
        try configure(bed, icons: true)
        bed.replay.inject(.delay(.seconds(40)), matching: "bb.")
        return bed
    }

    /// The JSON documents the export holds (every host, storefront and platform), by path.
    func documents(_ bed: TestBed) throws -> [String: [[String: Any]]] {
        var found: [String: [[String: Any]]] = [:]
        for path in bed.exportedFiles() where path.hasPrefix(TestBed.knotbook + "/") && path.hasSuffix(".json") {
            found[path] = try bed.exportedJSON(path)["apps"] as? [[String: Any]] ?? []
        }
        return found
    }

    /// Image requests the replay received.
    func imageRequests(_ bed: TestBed) -> [String] { bed.replay.requests.map(\.path).filter { $0.contains("bb.") } }

    /// The `icons:` line of a report.
    func iconLine(_ run: OneShotRun) -> String? { run.lines.first { $0.hasPrefix("icons: ") } }

    @Test("the first run mirrors every icon before writing: every document, fragment and email carries them")
    func mirrorsBeforeWriting() throws {
        let bed = try bed()
        let run = try OneShotRun.run(bed)
        #expect(run.status == 0, "\(run)")
        let documents = try documents(bed)
        #expect(documents.count == 4, "\(documents.keys)")
        let apps = documents.values.joined()
        #expect(!apps.isEmpty)
        var referenced = Set<String>()
        for app in apps {
            let icons = app["icons"] as? [String: String] ?? [:]
            #expect(Array(icons.keys) == ["128"], "\(app["id"] ?? "?") lists \(icons)")
            for path in icons.values {
                let bytes = try Data(contentsOf: bed.exported(path))
                #expect((try? ImageHeader.check(bytes, size: 128).get()) != nil, "\(path) is not 128 px")
            }
            if let source = app["iconUrl"] as? String { referenced.insert(source) }
        }
        let listed = Set(apps.compactMap { ($0["icons"] as? [String: String])?["128"] })
        #expect(bed.exportedFiles().filter { $0.hasPrefix("icons/") }.count == listed.count)
        let pages = bed.exportedFiles().filter {
            $0.hasPrefix(TestBed.knotbook + "/") && $0.hasSuffix(".html") && !$0.hasSuffix("banner.html")
        }
        #expect(pages.count == 8, "\(pages)")
        for page in pages {
            let text = try String(contentsOf: bed.exported(page), encoding: .utf8)
            #expect(text.contains("<img"), "\(page) has no <img>")
            #expect(!text.contains(bed.replay.artworkPrefix), "\(page) links the artwork host")
        }
        #expect(iconLine(run) == "icons: \(referenced.count) of \(referenced.count) mirrored", "\(run.stdout)")
        #expect(imageRequests(bed).count == referenced.count, "\(imageRequests(bed))")
    }

    @Test("a second run inside refresh.interval fetches no icon and rewrites nothing; --json counts the icons")
    func secondRunFetchesNothing() throws {
        let bed = try bed()
        let first = try OneShotRun.run(bed, ["--json"])
        #expect(first.status == 0, "\(first)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any], "\(first.stdout)")
        let icons = try #require(report["icons"] as? [String: Int], "\(report)")
        let mirrored = try #require(icons["mirrored"])
        #expect(mirrored > 0 && icons == ["referenced": mirrored, "mirrored": mirrored, "refused": 0, "failed": 0])
        #expect(imageRequests(bed).count == mirrored)
        let export = try OneShotTests.identities(under: bed.exportDirectory)
        let state = try OneShotTests.identities(under: bed.directory.appendingPathComponent("state"))
        #expect(state.keys.contains("icons.index"), "\(state)")
        bed.replay.clearRequests()

        let second = try OneShotRun.run(bed)
        #expect(second.status == 0, "\(second)")
        #expect(bed.replay.requests.isEmpty, "\(bed.replay.requests.map(\.target))")
        #expect(iconLine(second) == "icons: \(mirrored) of \(mirrored) mirrored", "\(second.stdout)")
        #expect(try OneShotTests.identities(under: bed.exportDirectory) == export)
        #expect(try OneShotTests.identities(under: bed.directory.appendingPathComponent("state")) == state)
    }

    @Test("an icon file removed from the tree is fetched again by the next run, before its documents are written")
    func removedIconFetchedAgain() throws {
        let bed = try bed()
        let first = try OneShotRun.run(bed)
        #expect(first.status == 0, "\(first)")
        let line = try #require(iconLine(first), "\(first.stdout)")
        let removed = try #require(bed.exportedFiles().first { $0.hasPrefix("icons/") })
        try FileManager.default.removeItem(at: bed.exported(removed))
        bed.replay.clearRequests()

        let second = try OneShotRun.run(bed)
        #expect(second.status == 0, "\(second)")
        #expect(iconLine(second) == line, "\(second.stdout)")
        #expect(bed.requests(matching: "/lookup").isEmpty)
        #expect(!imageRequests(bed).isEmpty, "the removed icon was not fetched again")
        #expect(FileManager.default.fileExists(atPath: bed.exported(removed).path))
        let listing = try documents(bed).values.joined().contains {
            ($0["icons"] as? [String: String])?["128"] == removed
        }
        #expect(listing, "no document lists \(removed) again")
    }

    @Test("an icon whose body is not an image is refused, logged and counted; the exit status stays 0")
    func refusedIcon() throws {
        let bed = try bed()
        bed.replay.inject(.body("malformed.html"), matching: "bb.", count: 1)
        let run = try OneShotRun.run(bed)
        #expect(run.status == 0, "\(run)")
        let requested = imageRequests(bed).count
        #expect(requested > 1)
        #expect(iconLine(run) == "icons: \(requested - 1) of \(requested) mirrored, 1 refused", "\(run.stdout)")
        #expect(run.stderr.contains("refused"), "\(run.stderr)")
        let apps = try documents(bed).values.joined()
        let bare = apps.filter { ($0["icons"] as? [String: String] ?? [:]).isEmpty }
        let without = Set(bare.compactMap { $0["iconUrl"] as? String })
        #expect(without.count == 1, "\(without)")
    }

    @Test("an artwork host that never answers is bounded by --max-wait: the run ends, counts them failed, exits 0")
    func hangingArtworkHost() throws {
        let bed = try hangingArtworkBed()
        // The bound is below both the hang and lookup.timeout: only --max-wait can end the run in it.
        let run = try OneShotRun.run(bed, ["--max-wait", "2s"], timeout: .seconds(30))
        #expect(run.status == 0, "\(run)")
        let line = try #require(iconLine(run), "\(run.stdout)")
        let referenced = try #require(Int(line.split(separator: " ")[3]), "\(line)")
        #expect(referenced > 2 && line == "icons: 0 of \(referenced) mirrored, \(referenced) failed", "\(line)")
        #expect(!imageRequests(bed).isEmpty)
        #expect(imageRequests(bed).count <= 2, "more than two at a time: \(imageRequests(bed))")
        #expect(run.stderr.contains("not fetched before the run stopped waiting"), "\(run.stderr)")
        for app in try documents(bed).values.joined() {
            #expect((app["icons"] as? [String: String] ?? [:]).isEmpty, "\(app)")
        }
    }

    @Test("SIGINT stops a run waiting on icons: the export is written without them, counted failed, and it exits 0")
    func interruptStopsIconWait() throws {
        let bed = try hangingArtworkBed()
        let started = try OneShotRun.start(bed)
        try waitFor(timeout: .seconds(20)) { !imageRequests(bed).isEmpty }
        kill(started.pid, SIGINT)
        // Bounded below the hang and the default --max-wait of 10 minutes: only the signal can end the run in it.
        let run = try started.wait(timeout: .seconds(30))
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("stopped waiting on signal \(SIGINT)"), "\(run.stderr)")
        let line = try #require(iconLine(run), "\(run.stdout)")
        #expect(line.hasPrefix("icons: 0 of ") && line.hasSuffix(" failed"), "\(line)")
    }
}
