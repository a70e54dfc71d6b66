import Foundation
import LookupReplay
import ShowcaseCore
import Testing

/// Mirrored icons through the real binary (SPEC §16): the replay draws the icons its rewritten artwork URLs name,
/// the daemon mirrors each (URL, size) once into `v1/icons/`, the documents list them, and a restart with the same
/// `state.directory` fetches none again.
@Suite("Mirrored icons end to end", .serialized)
struct IconExportTests {
    static let sizes = [128, 256]

    /// A daemon exporting Knotbook's roster in `storefronts` with `export.icons`, artwork served by the replay.
    func iconBed(storefronts: [String] = ["us", "de"]) throws -> TestBed {
        let bed = try TestBed()
        bed.storefronts = storefronts
        bed.replay.serveArtworkHere(true)
        bed.lookupLines = ["artwork_hosts: [\"\(bed.replay.artworkPrefix)\"]"]
        // The bed's own state directory (TestBed writes `state:`) keeps the icon index across a restart.
        bed.extra = """
            export:
              directory: \(bed.exportDirectory.path)
              gzip: false
              icons:
                sizes: [\(Self.sizes.map(String.init).joined(separator: ", "))]
            """
        try bed.start()
        try bed.waitUntilWarm()
        return bed
    }

    /// Every document's apps, by document path.
    func documents(_ bed: TestBed, _ storefronts: [String]) throws -> [String: [[String: Any]]] {
        var found: [String: [[String: Any]]] = [:]
        for storefront in storefronts {
            for platform in ["ios", "macos"] {
                let path = "\(TestBed.knotbook)/\(storefront)/\(platform).json"
                found[path] = try bed.exportedJSON(path)["apps"] as? [[String: Any]] ?? []
            }
        }
        return found
    }

    /// Exports until every app of every document lists every size (bounded against hangs only).
    func exportUntilMirrored(_ bed: TestBed, _ storefronts: [String]) throws -> [String: [[String: Any]]] {
        var last: [String: [[String: Any]]] = [:]
        do {
            try waitFor(timeout: .seconds(30)) {
                try bed.export()
                last = try documents(bed, storefronts)
                return last.values.joined().allSatisfy { app in
                    Set((app["icons"] as? [String: String] ?? [:]).keys) == Set(Self.sizes.map(String.init))
                }
            }
        } catch {
            throw HarnessError("icons never appeared: \(last) \(bed.daemon?.log ?? "")")
        }
        return last
    }

    var imagePaths: (TestBed) -> [String] { { $0.replay.requests.map(\.path).filter { $0.contains("bb.") } } }

    @Test("one request per (URL, size) across two storefronts; every document lists the icons, which are the size")
    func mirrorsOnce() throws {
        let bed = try iconBed()
        let documents = try exportUntilMirrored(bed, ["us", "de"])
        let apps = documents.values.joined()
        let sources = Set(apps.compactMap { $0["iconUrl"] as? String })
        #expect(!sources.isEmpty)
        #expect(sources.allSatisfy { $0.hasPrefix(bed.replay.artworkPrefix) })
        let requested = imagePaths(bed)
        #expect(requested.count == sources.count * Self.sizes.count, "\(requested)")
        #expect(Set(requested).count == requested.count, "an icon was fetched twice")
        for app in apps {
            for (size, path) in app["icons"] as? [String: String] ?? [:] {
                #expect(IconName.isIconPath(path))
                let bytes = try Data(contentsOf: bed.exported(path))
                #expect((try? ImageHeader.check(bytes, size: Int(size)!).get()) != nil, "\(path) is not \(size) px")
            }
        }
        let metrics = try bed.client().call("io.showcase.Admin.Metrics")
        let text = metrics.string("text") ?? ""
        #expect(text.contains("showcase_icon_requests_total{result=\"ok\"} \(requested.count)"), "\(text)")
    }

    @Test("a restart with the same state.directory fetches no icon again while its file exists")
    func restartWithoutRefetch() throws {
        let bed = try iconBed(storefronts: ["us"])
        let before = try exportUntilMirrored(bed, ["us"])
        #expect(!imagePaths(bed).isEmpty)
        try #require(try bed.daemon?.stop() == 0)
        bed.replay.clearRequests()
        try bed.start()
        try bed.waitUntilWarm()
        let after = try exportUntilMirrored(bed, ["us"])
        #expect(imagePaths(bed).isEmpty, "\(imagePaths(bed))")
        func icons(_ documents: [String: [[String: Any]]]) -> [[String: String]] {
            documents.keys.sorted().flatMap { documents[$0]!.map { $0["icons"] as? [String: String] ?? [:] } }
        }
        #expect(icons(after) == icons(before))
    }
}
