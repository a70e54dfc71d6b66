import Foundation
@preconcurrency import Glibc
import LookupReplay
import Testing

extension ExportTests {
    @Test("a storefront in a diagnostic keeps its last good documents byte for byte; index.json says why")
    func diagnosticKeepsLastGood() throws {
        let bed = try exportingBed()
        let documents = ["ios.json", "ios.json.gz", "macos.json", "macos.json.gz"].map { "\(Self.knotbook)/de/\($0)" }
        let before = try documents.map { try Data(contentsOf: bed.exported($0)) }
        try bed.ageExportedFiles()
        bed.replay.inject(.body("malformed.html"), matching: "limit=200&country=de", count: 1)
        try bed.refresh("de")
        #expect(try bed.get("de").error == "io.showcase.Roster.MalformedResponse")
        try bed.export()

        #expect(try documents.map { try Data(contentsOf: bed.exported($0)) } == before)
        #expect(try bed.rewrittenFiles() == ["index.json", "index.json.gz"])
        let index = try bed.exportedJSON("index.json")
        let entries = try #require(index["documents"] as? [[String: Any]])
        let kept = entries.filter { ($0["path"] as? String)?.contains("/de/") == true }
        #expect(kept.count == 2)
        for entry in kept {
            #expect(entry["state"] as? String == "failed")
            #expect(entry["revision"] as? Int == 1)
            #expect((entry["error"] as? String)?.contains("not a lookup response") == true, "\(entry)")
        }
        #expect(entries.filter { $0["state"] as? String == "fresh" }.count == 2, "us stays current")
        let diagnostics = try #require(index["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["storefront"] as? String == "de")
        #expect(diagnostics.first?["host"] as? String == Self.knotbook)
        #expect(diagnostics.first?["state"] as? String == "failed")

        // The next good refresh makes de current again.
        try bed.refresh("de")
        try bed.export()
        let recovered = try bed.exportedJSON("index.json")
        #expect((recovered["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(
            (recovered["documents"] as? [[String: Any]])?.allSatisfy { $0["state"] as? String == "fresh" } == true)
    }

    @Test("a storefront never fetched has no document; index.json lists why it is missing")
    func neverFetchedHasNone() throws {
        let bed = try TestBed()
        bed.storefronts = ["us", "jp"]
        bed.enableExport()
        bed.replay.inject(.status(503), matching: "limit=200&country=jp")
        try bed.start()
        try bed.refresh()
        try waitFor { try bed.statusEntry("jp")?["state"] as? String == "unavailable" }
        let reply = try bed.export()
        #expect(reply.error == nil, "\(reply)")
        #expect(bed.exportedFiles().contains("\(Self.knotbook)/us/ios.json"))
        #expect(!bed.exportedFiles().contains { $0.contains("/jp/") }, "\(bed.exportedFiles())")
        let index = try bed.exportedJSON("index.json")
        let diagnostics = try #require(index["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["storefront"] as? String } == ["jp"])
        #expect(diagnostics.first?["state"] as? String == "unavailable")
        #expect((diagnostics.first?["error"] as? String)?.contains("503") == true, "\(diagnostics)")
        #expect(
            (index["documents"] as? [[String: Any]])?.contains { $0["storefront"] as? String == "jp" } == false)
    }

    @Test("documents of a storefront or host no longer configured are removed; files it did not write stay")
    func removalKeepsForeignFiles() throws {
        let bed = try exportingBed(hosts: [Self.knotbook, Self.tideLog])
        let foreign = ["robots.txt", "\(Self.knotbook)/de/notes.txt", "\(Self.tideLog)/us/ios.json.bak"]
        for file in foreign {
            try Data("an operator's file\n".utf8).write(to: bed.exported(file))
        }
        bed.hosts = [Self.knotbook]
        bed.storefronts = ["us"]
        #expect(try bed.reload().int("generation") == 2)
        let expected = [
            ".showcase-manifest", "\(Self.knotbook)/de/notes.txt", "\(Self.knotbook)/us/ios.json",
            "\(Self.knotbook)/us/ios.json.gz", "\(Self.knotbook)/us/macos.json", "\(Self.knotbook)/us/macos.json.gz",
            "\(Self.tideLog)/us/ios.json.bak", "index.json", "index.json.gz", "robots.txt",
        ].sorted()
        // Files go one by one: wait for the whole tree to be as expected, not for the first removal.
        try eventually("the removal of what left the configuration", bed) { bed.exportedFiles() == expected }
        for file in foreign {
            #expect(try Data(contentsOf: bed.exported(file)) == Data("an operator's file\n".utf8), "\(file)")
        }
        let paths = (try bed.exportedJSON("index.json")["documents"] as? [[String: Any]])?.compactMap {
            $0["path"] as? String
        }
        #expect(paths == ["\(Self.knotbook)/us/ios.json", "\(Self.knotbook)/us/macos.json"])
    }

    @Test("a directory it cannot write is an error in the reply, the log and Status; the daemon keeps serving")
    func unusableDirectoryIsReported() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        // A regular file where a directory must be: no permission bit stops root, this stops everyone.
        let blocker = bed.directory.appendingPathComponent("blocker")
        try Data("not a directory\n".utf8).write(to: blocker)
        bed.enableExport(at: blocker.appendingPathComponent("export").path)
        try bed.start()
        try bed.waitUntilWarm()

        let reply = try bed.export()
        #expect(reply.error == nil, "\(reply)")
        let errors = try #require(reply["errors"] as? [String])
        #expect(errors.count == 1)
        #expect(errors.first?.contains("cannot use the export directory") == true, "\(errors)")
        #expect(reply.int("written") == 0)
        let export = try #require(try bed.status()["export"] as? [String: Any])
        #expect(export["errors"] as? Int == 1)
        #expect((export["lastError"] as? String)?.contains(blocker.path) == true, "\(export)")
        #expect(try bed.get("us").string("state") == "fresh", "Varlink is still served")
        let log = bed.daemon?.log ?? ""
        #expect(log.contains("cannot use the export directory"), "\(log)")

        // Once the path is usable, the next export succeeds, Status clears, and the log says so.
        try FileManager.default.removeItem(at: blocker)
        let fixed = try bed.export()
        #expect((fixed["errors"] as? [Any])?.isEmpty == true, "\(fixed)")
        #expect(fixed.int("written") ?? 0 > 0)
        let cleared = try #require(try bed.status()["export"] as? [String: Any])
        #expect(cleared["errors"] as? Int == 0)
        #expect(cleared["lastError"] == nil)
        #expect((bed.daemon?.log ?? "").contains("the export is current again"))
    }

    @Test("changing export.directory by reload exports to the new directory and leaves the old tree as it was")
    func directoryMovesByReload() throws {
        let bed = try exportingBed(storefronts: ["us"])
        let old = bed.exportedFiles()
        let moved = bed.directory.appendingPathComponent("moved", isDirectory: true)
        bed.enableExport(at: moved.path)
        #expect(try bed.reload().int("generation") == 2)
        try eventually("the export in the new directory", bed) {
            bed.exportedFiles(under: moved).contains("\(Self.knotbook)/us/ios.json")
        }
        #expect(bed.exportedFiles() == old, "the old tree is left alone")
        let reply = try bed.export()
        #expect(reply.string("directory") == moved.path)
        #expect(try bed.status()["export"].flatMap { $0 as? [String: Any] }?["directory"] as? String == moved.path)
        #expect((bed.daemon?.log ?? "").contains("export.directory changed"))
    }

    @Test("without export.directory, Admin.Export answers ExportNotConfigured and Status has no export")
    func notConfigured() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        try bed.start()
        let reply = try bed.export()
        #expect(reply.error == "io.showcase.Admin.ExportNotConfigured", "\(reply)")
        #expect(reply.parameters.isEmpty)
        #expect(try bed.status()["export"] == nil)
        #expect(!FileManager.default.fileExists(atPath: bed.exportDirectory.path))
    }
}
