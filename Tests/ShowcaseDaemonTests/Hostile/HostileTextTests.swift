import Foundation
import Testing

/// Issue #37, item 3, through the binary: an upstream that pads seven rows with megabyte names and bumps their
/// versions every refresh. Every text is bounded where a row is decoded (SPEC §20), so the reply, the cache's
/// apps, the history and every export document stay small however many refreshes it keeps it up.
@Suite("Hostile upstream text", .serialized)
struct HostileTextTests {
    /// The `us` fixture with its first seven iOS rows padded: a ~1 MB name, a 64 KiB version starting with
    /// `revision` (so each refresh bumps it), and 64 KiB seller, artist, genre and price texts.
    static func paddedRoster(_ bed: TestBed, revision: Int) throws -> [String: Any] {
        var body = try bed.fixtureRoster("us")
        var results = body["results"] as! [[String: Any]]
        var padded = 0
        for index in results.indices where padded < 7 && results[index]["kind"] as? String == "software" {
            results[index]["trackName"] = "Name \(padded) " + String(repeating: "N", count: 1_000_000)
            results[index]["version"] = "\(revision)." + String(repeating: "9", count: 65_536)
            results[index]["sellerName"] = String(repeating: "S", count: 65_536)
            results[index]["artistName"] = String(repeating: "A", count: 65_536)
            results[index]["primaryGenreName"] = String(repeating: "G", count: 65_536)
            results[index]["formattedPrice"] = String(repeating: "$", count: 65_536)
            results[index]["releaseNotes"] = String(repeating: "R", count: 1_000_000)
            padded += 1
        }
        body["results"] = results
        return body
    }

    /// Size in bytes of the file at `url` (0 when missing).
    func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Every regular file under `directory`, recursively.
    func files(under directory: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        var found: [URL] = []
        while let next = enumerator?.nextObject() as? URL {
            if (try? next.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(next) }
        }
        return found
    }

    @Test("seven rows with megabyte names, bumped each refresh: replies, cache apps, history and export stay bounded")
    func paddedRowsStayBounded() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.lookupLines = ["max_response_bytes: 16MiB"]
        bed.extra =
            "export:\n  directory: \(bed.exportDirectory.path)\n  gzip: false\n  html: true\n  feed: true\n"
        try bed.overrideRoster("us", try Self.paddedRoster(bed, revision: 1))
        try bed.start(environment: ["STATE_DIRECTORY": bed.directory.appendingPathComponent("state").path])
        try bed.waitUntilWarm()
        for revision in 2...4 {
            try bed.overrideRoster("us", try Self.paddedRoster(bed, revision: revision))
            #expect(try bed.refresh("us").error == nil)
        }
        #expect(try bed.export().error == nil)

        let reply = try bed.get("us")
        #expect(reply.error == nil, "\(reply)")
        let names = reply.apps.compactMap { $0["name"] as? String }
        // Six of the seven are iPhone apps (the default device); the reply holds them all, cut.
        #expect(names.filter { $0.hasPrefix("Name ") }.count >= 6, "\(names.map { $0.prefix(20) })")
        #expect(names.allSatisfy { $0.count <= 255 })
        #expect(names.filter { $0.hasPrefix("Name ") }.allSatisfy { $0.count == 255 && $0.hasSuffix("…") })
        #expect(reply.description.utf8.count < 256 << 10, "a reply of \(reply.description.utf8.count) bytes")

        let changes = try bed.client().call("io.showcase.Roster.Changes", ["storefront": "us"])
        #expect(changes.error == nil, "\(changes)")
        let entries = changes["changes"] as? [[String: Any]] ?? []
        #expect(entries.count >= 7, "\(entries.count) entries")
        for entry in entries {
            #expect((entry["version"] as? String)?.count ?? 0 <= 255)
            #expect((entry["name"] as? String)?.count ?? 0 <= 255)
            #expect((entry["releaseNotes"] as? String)?.utf8.count ?? 0 <= 4096)
        }

        // The cache file keeps the raw body (bounded by lookup.max_response_bytes); its decoded apps line is small.
        let cached = files(under: bed.cacheDirectory).filter { $0.lastPathComponent.contains("us") }
        #expect(!cached.isEmpty)
        for file in cached {
            let lines = try Data(contentsOf: file).split(separator: UInt8(ascii: "\n"), maxSplits: 2)
            #expect(lines.count == 3 && lines[1].count < 128 << 10, "\(file.lastPathComponent): \(lines.map(\.count))")
        }
        let logs = files(under: bed.directory.appendingPathComponent("state")).filter { $0.pathExtension == "log" }
        #expect(!logs.isEmpty)
        for log in logs { #expect(size(log) < 256 << 10, "\(log.lastPathComponent): \(size(log)) bytes") }
        let documents = files(under: bed.exportDirectory).filter { $0.path.contains("/us/") }
        #expect(Set(documents.map(\.pathExtension)).isSuperset(of: ["json", "html", "atom"]), "\(documents)")
        for document in documents {
            #expect(size(document) < 384 << 10, "\(document.lastPathComponent): \(size(document)) bytes")
        }
    }
}
