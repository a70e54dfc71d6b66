import Foundation
import ShowcaseCore
import ShowcaseExport
import Testing

@Suite("Export writer")
struct ExportWriterTests {
    let host = Samples.host

    @Test("writes one document per storefront and platform, a .json.gz beside each, index.json and the manifest")
    func layout() throws {
        let directory = try TemporaryDirectory()
        let report = ExportWriter(directory: directory.path).export([
            Samples.roster(storefront: Samples.us), Samples.roster(storefront: Samples.de),
        ])
        #expect(report.errors.isEmpty)
        let documents = [
            "\(host)/de/ios.json", "\(host)/de/macos.json", "\(host)/us/ios.json", "\(host)/us/macos.json",
        ]
        let expected = (documents + ["index.json"]).flatMap { ["v1/\($0)", "v1/\($0).gz"] } + ["v1/.showcase-manifest"]
        #expect(directory.files() == expected.sorted())
        #expect(report.written == 10)
        #expect(report.unchanged == 0)
        let ios = try parsed(directory.read("v1/\(host)/de/ios.json"))
        #expect(ios["storefront"] as? String == "de")
        #expect((ios["apps"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1_641_000_103, 1_641_000_105])
        let mac = try parsed(directory.read("v1/\(host)/de/macos.json"))
        #expect((mac["apps"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1_641_000_202])
        let manifest = String(decoding: try directory.read("v1/.showcase-manifest"), as: UTF8.self)
        #expect(manifest.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { "v1/\($0)" } == expected.dropLast())
    }

    // scripts/check-export-web.sh writes its tree under umask 077 (the unit's UMask=) and serves it as nobody.
    @Test("writes documents world-readable and folders traversable, for a web server running as another user")
    func modes() throws {
        let directory = try TemporaryDirectory()
        _ = ExportWriter(directory: directory.path).export([Samples.roster()])
        let mode =
            try FileManager.default.attributesOfItem(atPath: directory.file("v1/\(host)/us/ios.json"))[
                .posixPermissions] as? Int
        #expect(mode == 0o644)
        let folder =
            try FileManager.default.attributesOfItem(atPath: directory.file("v1/\(host)/us"))[
                .posixPermissions] as? Int
        #expect(folder == 0o755)
    }

    @Test("writes a .json.gz that gzip inflates to the same bytes, with no timestamp, identical across runs")
    func gzipBeside() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        _ = ExportWriter(directory: first.path).export([Samples.roster()])
        _ = ExportWriter(directory: second.path).export([Samples.roster()])
        let document = "v1/\(host)/us/ios.json"
        let inflated = try Tool.run("/bin/gzip", ["-dc", first.file(document + ".gz")])
        #expect(inflated.status == 0)
        #expect(inflated.stdout == (try first.read(document)))
        let compressed = try first.read(document + ".gz")
        #expect(Array(compressed.prefix(2)) == [0x1f, 0x8b])
        #expect(Array(compressed[4..<8]) == [0, 0, 0, 0], "MTIME must be zero")
        #expect(compressed == (try second.read(document + ".gz")))
    }

    @Test("leaves unchanged files alone, mtime and all, and rewrites only what changed")
    func onlyWhenChanged() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster(storefront: Samples.us), Samples.roster(storefront: Samples.de)])
        let all = directory.files().filter { !$0.hasSuffix(".showcase-manifest") }
        for file in all { try directory.age(file) }

        let same = writer.export([Samples.roster(storefront: Samples.us), Samples.roster(storefront: Samples.de)])
        #expect(same.written == 0)
        #expect(same.unchanged == 10)
        #expect(same.removed == 0)
        for file in all { #expect(try directory.modified(file) == TemporaryDirectory.longAgo, "\(file)") }

        // A new tagline in de only: de's iOS document (and its .gz) change; us and the Mac documents do not.
        let changed = writer.export([
            Samples.roster(storefront: Samples.us),
            Samples.roster(storefront: Samples.de, revision: 2, tagline: "Ein Nachtlicht"),
        ])
        #expect(changed.errors.isEmpty)
        let rewritten = all.filter { try! directory.modified($0) != TemporaryDirectory.longAgo }
        #expect(
            rewritten == [
                "v1/\(host)/de/ios.json", "v1/\(host)/de/ios.json.gz", "v1/\(host)/de/macos.json",
                "v1/\(host)/de/macos.json.gz", "v1/index.json", "v1/index.json.gz",
            ])
        #expect(changed.written == 6)
        #expect(changed.unchanged == 4)
    }

    @Test("rewrites a document whose file was damaged, and a .gz that no longer inflates to it")
    func repairs() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster()])
        try directory.write("v1/\(host)/us/ios.json", "{\"truncated\": ")
        try directory.write("v1/\(host)/us/macos.json.gz", "not gzip")
        let report = writer.export([Samples.roster()])
        #expect(report.written == 2)
        #expect(try parsed(directory.read("v1/\(host)/us/ios.json"))["host"] as? String == host)
        let inflated = try Tool.run("/bin/gzip", ["-dc", directory.file("v1/\(host)/us/macos.json.gz")])
        #expect(inflated.stdout == (try directory.read("v1/\(host)/us/macos.json")))
    }

    @Test("removes the documents of a storefront no longer configured, and never a file it did not write")
    func removal() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster(storefront: Samples.us), Samples.roster(storefront: Samples.de)])
        try directory.write("v1/\(host)/us/notes.txt", "the operator's")
        try directory.write("v1/robots.txt", "User-agent: *")
        try directory.write("v1/\(host)/de/ios.json.bak", "a copy")

        let report = writer.export([Samples.roster(storefront: Samples.de)])
        #expect(report.errors.isEmpty)
        #expect(report.removed == 4)
        #expect(!directory.exists("v1/\(host)/us/ios.json"))
        #expect(!directory.exists("v1/\(host)/us/macos.json.gz"))
        #expect(directory.exists("v1/\(host)/us/notes.txt"), "a foreign file in a removed storefront's folder stays")
        #expect(directory.exists("v1/robots.txt"))
        #expect(directory.exists("v1/\(host)/de/ios.json.bak"))
        let manifest = String(decoding: try directory.read("v1/.showcase-manifest"), as: UTF8.self)
        #expect(!manifest.contains("/us/"))
        #expect(manifest.contains("\(host)/de/ios.json\n"))

        // With nothing foreign in it, the emptied storefront folder goes as well.
        _ = writer.export([Samples.roster(storefront: Samples.us), Samples.roster(storefront: Samples.de)])
        try FileManager.default.removeItem(atPath: directory.file("v1/\(host)/us/notes.txt"))
        _ = writer.export([Samples.roster(storefront: Samples.de)])
        #expect(!directory.exists("v1/\(host)/us"))
    }

    @Test("refuses to overwrite a foreign file where a document belongs, but adopts one with the same bytes")
    func foreignFileAtDocumentPath() throws {
        let directory = try TemporaryDirectory()
        try directory.write("v1/\(host)/us/ios.json", "hand-written")
        let report = ExportWriter(directory: directory.path).export([Samples.roster()])
        #expect(report.errors.map(\.code) == [.foreignFile])
        #expect(report.errors.first?.path == directory.file("v1/\(host)/us/ios.json"))
        #expect(report.errors.first?.message.contains("was not written by showcased") == true)
        #expect(String(decoding: try directory.read("v1/\(host)/us/ios.json"), as: UTF8.self) == "hand-written")
        #expect(directory.exists("v1/\(host)/us/macos.json"))

        // Once it is moved away, the next export writes it; a file identical to ours is simply adopted.
        let reference = try TemporaryDirectory()
        _ = ExportWriter(directory: reference.path).export([Samples.roster()])
        try directory.write(
            "v1/\(host)/us/ios.json", String(decoding: try reference.read("v1/\(host)/us/ios.json"), as: UTF8.self))
        var before = stat()
        try #require(lstat(directory.file("v1/\(host)/us/ios.json"), &before) == 0)
        let adopted = ExportWriter(directory: directory.path).export([Samples.roster()])
        #expect(adopted.errors.isEmpty)
        // Only index.json and its .gz, which list the document now that it is ours; the document is not rewritten.
        #expect(adopted.written == 2)
        var after = stat()
        try #require(lstat(directory.file("v1/\(host)/us/ios.json"), &after) == 0)
        #expect(after.st_ino == before.st_ino)
        let later = ExportWriter(directory: directory.path).export([])
        #expect(!directory.exists("v1/\(host)/us/ios.json"), "an adopted file is listed and removed like any other")
        #expect(later.errors.isEmpty)
    }

    @Test("keeps the manifest across runs and ignores lines that would leave the tree")
    func manifestSurvives() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster()])
        let first = try directory.read("v1/.showcase-manifest")
        _ = writer.export([Samples.roster()])
        #expect(try directory.read("v1/.showcase-manifest") == first)

        try directory.write("outside.json", "precious")
        try directory.write("v1/.hidden", "precious")
        var tampered = String(decoding: first, as: UTF8.self)
        tampered += "../outside.json\n.hidden\n/etc/hostname\n\(host)/../../outside.json\n"
        try directory.write("v1/.showcase-manifest", tampered)
        let report = writer.export([])
        #expect(report.errors.isEmpty)
        #expect(directory.exists("outside.json"))
        #expect(directory.exists("v1/.hidden"))
        #expect(!directory.exists("v1/\(host)/us/ios.json"))
        #expect(
            directory.files()
                == [".showcase-manifest", "index.json", "index.json.gz", "outside.json", ".hidden"]
                .map { $0 == "outside.json" ? $0 : "v1/\($0)" }.sorted())
    }

    @Test("keeps a storefront's last good documents byte for byte while it is in a diagnostic, and says why")
    func diagnosticKeepsLastGood() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster(storefront: Samples.us), Samples.roster(storefront: Samples.de)])
        let before = try directory.read("v1/\(host)/de/ios.json")
        for file in directory.files() { try directory.age(file) }

        let failing = ExportRoster(
            host: host, storefront: Samples.de, state: .failed, fetchedAt: Samples.fetchedAt,
            error: "MalformedResponse: the lookup answered with an HTML page", content: .keepLastGood(revision: 1))
        let never = ExportRoster(
            host: host, storefront: Samples.jp, state: .failed, fetchedAt: nil,
            error: "HostAppNotFound: no app com.quietharbor.TideLog in jp", content: .keepLastGood(revision: nil))
        let report = writer.export([Samples.roster(storefront: Samples.us), failing, never])
        #expect(report.errors.isEmpty)
        #expect(report.removed == 0)
        #expect(try directory.read("v1/\(host)/de/ios.json") == before)
        #expect(try directory.modified("v1/\(host)/de/ios.json") == TemporaryDirectory.longAgo)
        #expect(try directory.modified("v1/\(host)/de/macos.json.gz") == TemporaryDirectory.longAgo)
        #expect(!directory.exists("v1/\(host)/jp"), "a storefront never fetched has no document")

        let index = try parsed(directory.read("v1/index.json"))
        let entries = try #require(index["documents"] as? [[String: Any]])
        let de = try #require(entries.first { $0["path"] as? String == "\(host)/de/ios.json" })
        #expect(de["state"] as? String == "failed")
        #expect(de["revision"] as? Int == 1)
        #expect(de["error"] as? String == "MalformedResponse: the lookup answered with an HTML page")
        let us = try #require(entries.first { $0["path"] as? String == "\(host)/us/ios.json" })
        #expect(us["state"] as? String == "fresh")
        #expect(us["error"] == nil)
        let diagnostics = try #require(index["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["storefront"] as? String } == ["de", "jp"])
    }

    @Test("removes the documents of a roster that has none any more")
    func absentRoster() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster()])
        let unavailable = ExportRoster(
            host: host, storefront: Samples.us, state: .unavailable, fetchedAt: nil,
            error: "the lookup service could not be reached", content: .absent)
        let report = writer.export([unavailable])
        #expect(report.removed == 4)
        #expect(!directory.exists("v1/\(host)/us/ios.json"))
        let index = try parsed(directory.read("v1/index.json"))
        #expect((index["documents"] as? [Any])?.isEmpty == true)
        #expect((index["diagnostics"] as? [[String: Any]])?.first?["state"] as? String == "unavailable")
    }

    @Test("drops the .json.gz files when gzip is turned off, and writes them again when it is turned on")
    func gzipToggle() throws {
        let directory = try TemporaryDirectory()
        _ = ExportWriter(directory: directory.path, gzip: true).export([Samples.roster()])
        let off = ExportWriter(directory: directory.path, gzip: false).export([Samples.roster()])
        #expect(off.removed == 3)
        #expect(directory.files().filter { $0.hasSuffix(".gz") }.isEmpty)
        let on = ExportWriter(directory: directory.path, gzip: true).export([Samples.roster()])
        #expect(on.written == 3)
        #expect(on.unchanged == 3)
    }

    @Test("writes each configured language in its folder and the default one at the storefront's own path")
    func languages() throws {
        let directory = try TemporaryDirectory()
        let canada = try Storefront(parsing: "ca")
        let report = ExportWriter(directory: directory.path, gzip: false).export([
            Samples.roster(storefront: canada, language: "en", isDefaultLanguage: true),
            Samples.roster(storefront: canada, language: "fr", isDefaultLanguage: false),
        ])
        #expect(report.errors.isEmpty)
        #expect(
            directory.files().filter { $0.contains("/ca/") } == [
                "v1/\(host)/ca/en/ios.json", "v1/\(host)/ca/en/macos.json", "v1/\(host)/ca/fr/ios.json",
                "v1/\(host)/ca/fr/macos.json", "v1/\(host)/ca/ios.json", "v1/\(host)/ca/macos.json",
            ])
        #expect(try directory.read("v1/\(host)/ca/ios.json") == (try directory.read("v1/\(host)/ca/en/ios.json")))
        #expect(try parsed(directory.read("v1/\(host)/ca/fr/ios.json"))["language"] as? String == "fr")
    }

    @Test("refuses a host or language that is no safe file name, as an error value")
    func unsafeNames() throws {
        let directory = try TemporaryDirectory()
        let report = ExportWriter(directory: directory.path).export([
            Samples.roster(host: "../escape"), Samples.roster(language: ".."),
            Samples.roster(storefront: Samples.de),
        ])
        #expect(report.errors.map(\.code) == [.invalidDocument, .invalidDocument])
        #expect(directory.files().allSatisfy { $0.hasPrefix("v1/") })
        #expect(directory.exists("v1/\(host)/de/ios.json"))
    }

    @Test("reports a directory it cannot create as an error value, writing nothing")
    func unusableDirectory() throws {
        let directory = try TemporaryDirectory()
        try directory.write("export", "a file, not a directory")
        let report = ExportWriter(directory: directory.file("export")).export([Samples.roster()])
        #expect(report.errors.map(\.code) == [.directoryUnusable])
        #expect(report.errors.first?.message.contains("exists and is not a directory") == true)
        #expect(report.written == 0)
    }

    @Test("reports a read-only export directory as an error value and leaves the last export in place")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster()])
        let before = try directory.read("v1/\(host)/us/ios.json")
        // Root ignores permission bits; the immutable attribute stops it as well.
        let folder = directory.file("v1/\(host)/us")
        if getuid() == 0 {
            let chattr = try Tool.run("/usr/bin/chattr", ["+i", folder])
            try #require(chattr.status == 0, "chattr +i failed: the file system must support the immutable flag")
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        }
        defer {
            _ = try? Tool.run("/usr/bin/chattr", ["-i", folder])
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        }

        let report = writer.export([Samples.roster(revision: 2, tagline: "changed")])
        // The new revision changes both platforms' documents there: four files, none written.
        #expect(report.errors.map(\.code) == [.writeFailed, .writeFailed, .writeFailed, .writeFailed])
        #expect(report.errors.allSatisfy { $0.path.hasPrefix(folder + "/") })
        #expect(report.errors.first?.message.contains("the previous version, if any, stays in place") == true)
        #expect(try directory.read("v1/\(host)/us/ios.json") == before)
        #expect(report.written == 2, "index.json and its .gz are elsewhere and still written")
    }

    @Test("reports two rosters claiming one document, writing the first")
    func duplicateRoster() throws {
        let directory = try TemporaryDirectory()
        let report = ExportWriter(directory: directory.path).export([
            Samples.roster(tagline: "first"), Samples.roster(tagline: "second"),
        ])
        #expect(report.errors.map(\.code) == [.invalidDocument, .invalidDocument])
        let apps = try parsed(directory.read("v1/\(host)/us/ios.json"))["apps"] as? [[String: Any]]
        #expect(apps?.first?["tagline"] as? String == "first")
    }
}
