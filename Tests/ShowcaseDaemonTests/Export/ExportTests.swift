import Foundation
@preconcurrency import Glibc
import Testing

/// The static export through the real binary: layout, document and index fields, when files are (not) rewritten,
/// diagnostics, removal, foreign files, failures, and `Admin.Export` (README "Static export").
@Suite("Static export", .serialized)
struct ExportTests {
    static let knotbook = TestBed.knotbook
    static let tideLog = TestBed.tideLog
    static let lanternlight = 1_641_000_103
    static let galley = 1_641_000_104
    static let windrose = 1_641_000_105
    static let chartTable = 1_641_000_202

    /// A warm daemon exporting `storefronts` for Knotbook (and `hosts`), with `overlay`.
    func exportingBed(
        hosts: [String] = [TestBed.knotbook], storefronts: [String] = ["us", "de"], overlay: String = "{}\n"
    ) throws -> TestBed {
        let bed = try TestBed()
        bed.hosts = hosts
        bed.storefronts = storefronts
        bed.enableExport()
        try bed.writeOverlay(overlay)
        try bed.start()
        try bed.waitUntilWarm()
        let reply = try bed.export()
        #expect(reply.error == nil, "\(reply)")
        return bed
    }

    /// Polls until `condition` holds, for effects the daemon brings about by itself (bounded against hangs only).
    func eventually(_ what: String, _ bed: TestBed, _ condition: () throws -> Bool) throws {
        do { try waitFor(timeout: .seconds(20), condition) } catch {
            throw HarnessError("\(what) did not happen: \(bed.exportedFiles()) \(bed.daemon?.log ?? "")")
        }
    }

    @Test("one document per host, storefront and platform with a .json.gz beside it, index.json and the manifest")
    func layout() throws {
        let bed = try exportingBed(hosts: [Self.knotbook, Self.tideLog])
        var expected: [String] = ["index.json", "index.json.gz", ".showcase-manifest"]
        for host in [Self.knotbook, Self.tideLog] {
            for storefront in ["us", "de"] {
                for platform in ["ios", "macos"] {
                    expected += ["\(host)/\(storefront)/\(platform).json", "\(host)/\(storefront)/\(platform).json.gz"]
                }
            }
        }
        #expect(bed.exportedFiles() == expected.sorted())
        for file in expected where file.hasSuffix(".gz") {
            let inflated = Process()
            inflated.executableURL = URL(fileURLWithPath: "/bin/gzip")
            inflated.arguments = ["-dc", bed.exported(file).path]
            let pipe = Pipe()
            inflated.standardOutput = pipe
            try inflated.run()
            let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
            inflated.waitUntilExit()
            #expect(bytes == (try Data(contentsOf: bed.exported(String(file.dropLast(3))))), "\(file)")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: bed.exported("index.json").path)[.posixPermissions]
        #expect(mode as? Int == 0o644)
    }

    @Test("each document lists the apps exactly as Get answers them with no OS floor, plus every locale's tagline")
    func documentsAreGet() throws {
        let overlay = """
            order: [\(Self.windrose)]
            excluded: [\(Self.galley)]
            taglines:
              \(Self.lanternlight):
                default: "A night light that knows the tide"
                de: "Ein Nachtlicht, das die Gezeiten kennt"
              \(Self.chartTable): "Charts on the table"

            """
        let bed = try exportingBed(overlay: overlay)
        for storefront in ["us", "de"] {
            for platform in ["ios", "macos"] {
                let path = "\(Self.knotbook)/\(storefront)/\(platform).json"
                let document = try bed.exportedJSON(path)
                #expect(document["schema"] as? Int == 1)
                #expect(document["host"] as? String == Self.knotbook)
                #expect(document["storefront"] as? String == storefront)
                #expect(document["platform"] as? String == platform)
                #expect(document["language"] == nil)
                #expect(document["revision"] as? Int == 1)
                #expect((document["revisedAt"] as? String)?.hasSuffix("Z") == true)
                #expect(
                    Set(document.keys) == [
                        "schema", "host", "storefront", "platform", "revision", "revisedAt", "locale", "labels", "apps",
                    ])

                let get = try bed.get(storefront, ["host": Self.knotbook, "platform": platform])
                let apps = try #require(document["apps"] as? [[String: Any]])
                #expect(apps.compactMap { $0["id"] as? Int } == get.appIDs, "\(path)")
                #expect(!get.appIDs.isEmpty)
                for (exported, served) in zip(apps, get.apps) {
                    for (key, value) in served {
                        #expect(
                            exported[key].map { "\($0)" } == "\(value)", "\(path): \(key) of app \(served["id"] ?? "?")"
                        )
                    }
                    // Beyond Get's fields, only what the App of the contract adds and the taglines map.
                    let extra = Set(exported.keys).subtracting(served.keys)
                    #expect(extra.isSubset(of: ["taglines", "price", "currency", "devices"]), "\(path): \(extra)")
                    #expect(exported["taglines"] is [String: String])
                }
            }
        }
        let usIOS = try #require(try bed.exportedJSON("\(Self.knotbook)/us/ios.json")["apps"] as? [[String: Any]])
        #expect(usIOS.first?["id"] as? Int == Self.windrose, "the overlay's order")
        #expect(!usIOS.contains { $0["id"] as? Int == Self.galley }, "excluded")
        #expect(!usIOS.contains { $0["bundleId"] as? String == Self.knotbook }, "the host itself is never listed")
        #expect(usIOS.contains { $0["minimumOsVersion"] as? String == "17.2" }, "no OS floor: HarborMaster (17.2)")
        let deIOS = try #require(try bed.exportedJSON("\(Self.knotbook)/de/ios.json")["apps"] as? [[String: Any]])
        let lantern = try #require(deIOS.first { $0["id"] as? Int == Self.lanternlight })
        #expect(lantern["tagline"] as? String == "Ein Nachtlicht, das die Gezeiten kennt", "the storefront's locale")
        #expect(
            lantern["taglines"] as? [String: String] == [
                "default": "A night light that knows the tide", "de": "Ein Nachtlicht, das die Gezeiten kennt",
            ])
        let usLantern = try #require(usIOS.first { $0["id"] as? Int == Self.lanternlight })
        #expect(usLantern["tagline"] as? String == "A night light that knows the tide")
        let deMac = try #require(try bed.exportedJSON("\(Self.knotbook)/de/macos.json")["apps"] as? [[String: Any]])
        #expect(
            deMac.first { $0["id"] as? Int == Self.chartTable }?["taglines"] as? [String: String] == [
                "default": "Charts on the table"
            ])
    }

    @Test("index.json lists every document with its state, revision and fetch time, and no diagnostics")
    func index() throws {
        let bed = try exportingBed()
        let index = try bed.exportedJSON("index.json")
        #expect(index["schema"] as? Int == 1)
        #expect((index["diagnostics"] as? [Any])?.isEmpty == true)
        let documents = try #require(index["documents"] as? [[String: Any]])
        #expect(
            documents.compactMap { $0["path"] as? String } == [
                "\(Self.knotbook)/de/ios.json", "\(Self.knotbook)/de/macos.json", "\(Self.knotbook)/us/ios.json",
                "\(Self.knotbook)/us/macos.json",
            ])
        for entry in documents {
            let storefront = try #require(entry["storefront"] as? String)
            #expect(entry["host"] as? String == Self.knotbook)
            #expect(
                entry["platform"] as? String
                    == (entry["path"] as? String)?.split(separator: "/").last?
                    .replacingOccurrences(of: ".json", with: ""))
            #expect(entry["language"] is NSNull)
            #expect(entry["state"] as? String == "fresh")
            #expect(entry["revision"] as? Int == 1)
            #expect(entry["error"] == nil)
            #expect(entry["fetchedAt"] as? String == (try bed.get(storefront)).string("fetchedAt"))
        }
    }

    @Test("an identical refresh rewrites no document, and Admin.Export then writes nothing at all")
    func identicalRefreshKeepsMtime() throws {
        let bed = try exportingBed()
        try bed.ageExportedFiles()
        let refreshed = try bed.refresh()
        #expect((refreshed["failed"] as? [Any])?.isEmpty == true, "\(refreshed)")
        let reply = try bed.export()
        #expect(reply.string("directory") == bed.exportDirectory.path)
        #expect(reply.int("unchanged") ?? 0 >= 8)
        #expect(reply.int("removed") == 0)
        #expect((reply["errors"] as? [Any])?.isEmpty == true)
        // index.json carries the new fetch time (when a second has passed); no document changed.
        let rewritten = try bed.rewrittenFiles()
        #expect(rewritten.allSatisfy { $0.hasPrefix("index.json") }, "\(rewritten)")
        #expect(try bed.exportedJSON("\(Self.knotbook)/de/ios.json")["revision"] as? Int == 1)
        try bed.ageExportedFiles()
        let again = try bed.export()
        #expect(again.int("written") == 0, "\(again)")
        #expect(try bed.rewrittenFiles().isEmpty)
        let export = try #require(try bed.status()["export"] as? [String: Any])
        #expect(export["directory"] as? String == bed.exportDirectory.path)
        #expect(export["exportedAt"] is String)
        #expect(export["errors"] as? Int == 0)
        #expect(export["lastError"] == nil)
    }

    @Test("a reload changing one iOS tagline rewrites the iOS documents listing it, and no Mac document")
    func reloadRewritesOnlyWhatChanged() throws {
        let bed = try exportingBed()
        try bed.ageExportedFiles()
        try bed.writeOverlay("taglines:\n  \(Self.lanternlight): \"Now with tides\"\n")
        #expect(try bed.reload().int("generation") == 2)
        let path = "\(Self.knotbook)/de/ios.json"
        try eventually("the new tagline reaching \(path)", bed) {
            let apps = try bed.exportedJSON(path)["apps"] as? [[String: Any]] ?? []
            return apps.contains { $0["tagline"] as? String == "Now with tides" }
        }
        try eventually("index.json naming revision 2", bed) {
            let documents = try bed.exportedJSON("index.json")["documents"] as? [[String: Any]] ?? []
            return documents.first { $0["path"] as? String == path }?["revision"] as? Int == 2
        }
        // The reload's pass may still be renaming its last files: an Admin.Export pass starts only after it ends.
        let after = try bed.export()
        #expect(after.int("written") == 0, "\(after)")
        let rewritten = try bed.rewrittenFiles()
        #expect(
            rewritten
                == [
                    "\(Self.knotbook)/de/ios.json", "\(Self.knotbook)/de/ios.json.gz", "\(Self.knotbook)/us/ios.json",
                    "\(Self.knotbook)/us/ios.json.gz", "index.json", "index.json.gz",
                ].sorted())
        #expect(try bed.exportedJSON(path)["revision"] as? Int == 2)
        #expect(try bed.exportedJSON("\(Self.knotbook)/de/macos.json")["revision"] as? Int == 1)
    }

    @Test("a reload changing one host's tagline renders that host's rosters again and reuses the other host's")
    func reloadRendersOneHost() throws {
        let bed = try TestBed()
        bed.hosts = [Self.knotbook, Self.tideLog]
        bed.storefronts = ["us", "de"]
        bed.enableExport()
        let tideLogOverlay = bed.directory.appendingPathComponent("tidelog.yaml")
        try "{}\n".write(to: tideLogOverlay, atomically: true, encoding: .utf8)
        bed.hostOverlays = [Self.tideLog: "tidelog.yaml"]
        try bed.start()
        try bed.waitUntilWarm()
        #expect(try bed.export().error == nil)
        // A file is vouched for once its ctime is past the settle margin (FileIdentity.settleNanoseconds): after
        // this pass reads the files back, the next reuses every roster whose fingerprint did not change.
        usleep(200_000)
        #expect(try bed.export().error == nil)

        try "taglines:\n  \(Self.lanternlight): \"Now with tides\"\n".write(
            to: tideLogOverlay, atomically: true, encoding: .utf8)
        #expect(try bed.reload().int("generation") == 2)
        // Answered by a pass that starts after the call: the reload's own, or one after it.
        #expect(try bed.export().error == nil)
        let log = bed.daemon?.log ?? ""
        #expect(log.contains("; 2 rosters rendered, 2 reused"), "\(log)")
        func tagline(_ host: String) throws -> String? {
            let apps = try bed.exportedJSON("\(host)/de/ios.json")["apps"] as? [[String: Any]] ?? []
            return apps.first { $0["id"] as? Int == Self.lanternlight }?["tagline"] as? String
        }
        #expect(try tagline(Self.tideLog) == "Now with tides")
        #expect(try tagline(Self.knotbook) != "Now with tides")
    }

    @Test("a new upstream revision of one storefront rewrites that storefront's changed document only")
    func newRevisionRewritesItsDocument() throws {
        let bed = try exportingBed()
        try bed.ageExportedFiles()
        var body = try bed.fixtureRoster("de")
        var results = try #require(body["results"] as? [[String: Any]])
        let index = try #require(results.firstIndex { $0["trackId"] as? Int == Self.windrose })
        results[index]["trackName"] = "Windrose Pro"
        body["results"] = results
        try bed.overrideRoster("de", body)
        try bed.refresh("de")
        try bed.export()
        #expect(
            try bed.rewrittenFiles() == [
                "\(Self.knotbook)/de/ios.json", "\(Self.knotbook)/de/ios.json.gz", "index.json", "index.json.gz",
            ])
        let document = try bed.exportedJSON("\(Self.knotbook)/de/ios.json")
        #expect(document["revision"] as? Int == 2)
        #expect((document["apps"] as? [[String: Any]])?.contains { $0["name"] as? String == "Windrose Pro" } == true)
    }

    @Test("a restarted daemon keeps every document as it was: same bytes, mtime and revision")
    func restartKeepsDocuments() throws {
        let bed = try exportingBed()
        let before = try Data(contentsOf: bed.exported("\(Self.knotbook)/de/ios.json"))
        try bed.ageExportedFiles()
        try #require(try bed.daemon?.stop() == 0)
        try bed.start()
        let reply = try bed.export()
        #expect(reply.error == nil, "\(reply)")
        #expect(try Data(contentsOf: bed.exported("\(Self.knotbook)/de/ios.json")) == before)
        let rewritten = try bed.rewrittenFiles()
        #expect(rewritten.allSatisfy { $0.hasPrefix("index.json") }, "\(rewritten)")
    }

    @Test("the export filters by platform only: apps Get leaves out for a phone are listed with their devices")
    func everyDevice() throws {
        let bed = try exportingBed(hosts: ["com.lamplight.Beacon"], storefronts: ["us"])
        let document = try bed.exportedJSON("com.lamplight.Beacon/us/ios.json")
        let apps = try #require(document["apps"] as? [[String: Any]])
        let devices = Dictionary(
            uniqueKeysWithValues: apps.compactMap { app in
                (app["bundleId"] as? String).map { ($0, app["devices"] as? [String] ?? []) }
            })
        #expect(devices["com.lamplight.Wristlog"] == ["watch"], "\(devices)")
        #expect(devices["com.lamplight.Couchcast"] == ["tv"])
        #expect(devices["com.lamplight.SpatialRoom"] == ["vision"])
        #expect(devices["com.lamplight.Sketchpad"] == ["ipad"])
        #expect(devices["com.lamplight.Beacon"] == nil, "the host itself is never listed")
        // Get without a device keeps what runs on an iPhone or an iPad: exactly those of the document, in order.
        let get = try bed.get("us", ["host": "com.lamplight.Beacon", "platform": "ios"])
        let phoneOrPad = apps.filter { app in
            (app["devices"] as? [String] ?? []).contains { $0 == "iphone" || $0 == "ipad" }
        }
        #expect(phoneOrPad.compactMap { $0["id"] as? Int } == get.appIDs)
        #expect(apps.count > get.appIDs.count)
    }
}
