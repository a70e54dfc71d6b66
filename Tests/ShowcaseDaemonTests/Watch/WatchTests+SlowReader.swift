import Foundation
import Testing

extension WatchTests {
    /// A roster of `count` iOS apps whose names carry `variant` and enough padding that one Watch reply is
    /// larger than a Unix socket's kernel send buffer (about 200 KB), so replies for a reader that does not
    /// read must wait in the daemon. Texts are bounded where a row is decoded (SPEC §20: a name at 255
    /// characters, a genre or a price at 1 KiB), so the padding is spread over three served fields, each
    /// within its bound, and every app carries about 2 KB.
    static func bigRoster(_ bed: TestBed, variant: Int, count: Int = 120) throws -> [String: Any] {
        var roster = try bed.fixtureRoster("de")
        let rows = roster["results"] as! [[String: Any]]
        let artist = rows.filter { $0["wrapperType"] as? String == "artist" }
        let software = rows.filter { $0["kind"] as? String == "software" }
        let padding = String(repeating: "~", count: 200)
        let wide = String(repeating: "~", count: 900)
        let apps: [[String: Any]] = (0..<count).map { index in
            var row = software[index % software.count]
            row["trackId"] = 1_641_100_000 + index
            row["bundleId"] = "com.quietharbor.Synthetic\(index)"
            row["trackName"] = "Synthetic \(index) v\(variant) \(padding)"
            row["primaryGenreName"] = "Genre \(wide)"
            row["formattedPrice"] = "Price \(wide)"
            return row
        }
        roster["results"] = artist + apps
        roster["resultCount"] = artist.count + apps.count
        return roster
    }

    @Test("a Watch reader that does not keep up gets the latest state, not a backlog of every revision")
    func slowReaderGetsLatestState() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start()
        try bed.waitUntilWarm()
        let watcher = try bed.client()
        let first = try watcher.call("io.showcase.Roster.Watch", ["storefront": "de"], more: true)
        let revision = try #require(first.int("revision"))
        // Six changed refreshes while the watcher reads nothing.
        let changes = 6
        for variant in 1...changes {
            try bed.overrideRoster("de", try Self.bigRoster(bed, variant: variant))
            try bed.refresh("de")
        }
        var received: [Reply] = []
        while received.last?.int("revision") != revision + changes {
            received.append(try watcher.next())
        }
        #expect(received.last?.apps.count == 120)
        #expect((received.last?.apps.first?["name"] as? String)?.contains("v\(changes) ") == true)
        // The reply being written when the reader stalled, then only the latest state.
        #expect(received.count <= 2, "\(received.map { $0.int("revision") ?? -1 })")
    }
}
