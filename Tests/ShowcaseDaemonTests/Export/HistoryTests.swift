import Foundation
import Testing

/// SPEC §15 through the binary: an upstream whose roster the test changes between refreshes, read back with
/// `Roster.Changes`.
@Suite("Change history", .serialized)
struct HistoryTests {
    static let tideLog = 1_641_000_101
    static let knotbook = 1_641_000_102
    static let lanternlight = 1_641_000_103
    static let galley = 1_641_000_104
    static let newApp = 1_641_000_199

    /// A bed keeping `us` only, with its state directory in the test's directory.
    static func bed() throws -> TestBed {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        return bed
    }

    static func environment(_ bed: TestBed) -> [String: String] {
        ["STATE_DIRECTORY": bed.directory.appendingPathComponent("state").path]
    }

    /// Waits for the first warm, then one refresh more: a refresh still in flight (recording its baseline) when
    /// Status turned fresh is over once that one has answered.
    func warm(_ bed: TestBed) throws {
        try bed.waitUntilWarm()
        #expect(try bed.refresh("us").error == nil)
    }

    func changes(_ bed: TestBed, _ parameters: [String: Any] = [:]) throws -> Reply {
        var all = parameters
        all["storefront"] = all["storefront"] ?? "us"
        return try bed.client().call("io.showcase.Roster.Changes", all)
    }

    func entries(_ reply: Reply) -> [[String: Any]] { reply["changes"] as? [[String: Any]] ?? [] }
    func kinds(_ reply: Reply) -> [String] { entries(reply).compactMap { $0["kind"] as? String } }
    func serials(_ reply: Reply) -> [Int] { entries(reply).compactMap { ($0["serial"] as? NSNumber)?.intValue } }
    func ids(_ reply: Reply) -> [Int] { entries(reply).compactMap { ($0["id"] as? NSNumber)?.intValue } }

    /// The `us` fixture with TideLog at 2.4.0 (notes, date), Lanternlight repriced, Galley gone and a new app.
    func changedRoster(_ bed: TestBed, tideLogVersion: String = "2.4.0") throws -> [String: Any] {
        var body = try bed.fixtureRoster("us")
        var results = body["results"] as! [[String: Any]]
        for index in results.indices {
            switch (results[index]["trackId"] as? NSNumber)?.intValue {
            case Self.tideLog:
                results[index]["version"] = tideLogVersion
                results[index]["currentVersionReleaseDate"] = "2026-12-01T08:00:00Z"
                results[index]["releaseNotes"] = "Tide alarms\nand <faster> charts"
            case Self.lanternlight:
                results[index]["price"] = 1.99
                results[index]["formattedPrice"] = "$1.99"
            default: break
            }
        }
        results.removeAll { ($0["trackId"] as? NSNumber)?.intValue == Self.galley }
        var added = results.first { ($0["trackId"] as? NSNumber)?.intValue == Self.lanternlight }!
        added["trackId"] = Self.newApp
        added["trackName"] = "Mooring Log"
        added["bundleId"] = "com.quietharbor.Mooring"
        added["trackViewUrl"] = "https://apps.apple.com/us/app/mooring-log/id\(Self.newApp)?uo=4"
        results.append(added)
        body["results"] = results
        body["resultCount"] = results.count
        return body
    }

    @Test(
        "the first roster records nothing; a refresh with a version bump, a price change, a new and a removed app records each once"
    )
    func everyKind() throws {
        let bed = try Self.bed()
        try bed.start(environment: Self.environment(bed))
        try warm(bed)
        let first = try changes(bed)
        #expect(first.error == nil, "\(first)")
        #expect(first.int("latest") == 0)
        #expect(entries(first).isEmpty)

        try bed.overrideRoster("us", try changedRoster(bed))
        #expect(try bed.refresh("us").error == nil)
        let reply = try changes(bed)
        #expect(reply.int("latest") == 4)
        #expect(serials(reply) == [4, 3, 2, 1], "newest first")
        #expect(Set(kinds(reply)) == ["updated", "price", "added", "removed"])
        let updated = try #require(entries(reply).first { $0["kind"] as? String == "updated" })
        #expect(updated["id"] as? Int == Self.tideLog)
        #expect(updated["version"] as? String == "2.4.0")
        #expect(updated["versionDate"] as? String == "2026-12-01T08:00:00Z")
        #expect(updated["releaseNotes"] as? String == "Tide alarms\nand <faster> charts")
        let price = try #require(entries(reply).first { $0["kind"] as? String == "price" })
        #expect(price["formattedPrice"] as? String == "$1.99")
        #expect(price["previousFormattedPrice"] as? String == "Free")
        #expect(entries(reply).first { $0["kind"] as? String == "removed" }?["id"] as? Int == Self.galley)
        #expect(entries(reply).first { $0["kind"] as? String == "added" }?["name"] as? String == "Mooring Log")

        // The same roster again: nothing new.
        #expect(try bed.refresh("us").error == nil)
        #expect(try changes(bed).int("latest") == 4)
        // Paging: since and limit.
        #expect(serials(try changes(bed, ["since": 1, "limit": 2])) == [3, 2], "the oldest after since")
        #expect(serials(try changes(bed, ["limit": 2])) == [4, 3], "without since the newest")
        #expect(serials(try changes(bed, ["since": 4])).isEmpty)
    }

    @Test("a malformed body records nothing; a restart keeps the entries and carries on with the next serial")
    func malformedAndRestart() throws {
        let bed = try Self.bed()
        try bed.start(environment: Self.environment(bed))
        try warm(bed)
        try bed.overrideRoster("us", try changedRoster(bed))
        #expect(try bed.refresh("us").error == nil)
        let recorded = try changes(bed)
        #expect(recorded.int("latest") == 4, "\(recorded) \(bed.daemon?.log ?? "")")

        bed.replay.setOverride("roster-\(TestBed.artistId)-us.json", contents: Data("{\"resultCount\": 3, \"res".utf8))
        let failed = try bed.refresh("us")
        #expect((failed["failed"] as? [[String: Any]])?.isEmpty == false, "\(failed)")
        #expect(try changes(bed).int("latest") == 4)

        _ = try bed.daemon?.stop()
        try bed.overrideRoster("us", try changedRoster(bed))
        try bed.start(environment: Self.environment(bed))
        #expect(serials(try changes(bed)) == [4, 3, 2, 1], "kept across the restart")
        #expect(try bed.refresh("us").error == nil)
        #expect(try changes(bed).int("latest") == 4, "the restart invents nothing")
        try bed.overrideRoster("us", try changedRoster(bed, tideLogVersion: "2.5.0"))
        #expect(try bed.refresh("us").error == nil)
        let after = try changes(bed)
        #expect(serials(after).first == 5)
        #expect(kinds(after).first == "updated")
    }

    @Test("an excluded app's entries disappear after a reload, attribution applies, and the host never appears")
    func overlayAtReadTime() throws {
        let bed = try Self.bed()
        bed.extra = "attribution:\n  provider_token: \"1234567\""
        try bed.start(environment: Self.environment(bed))
        try warm(bed)
        try bed.overrideRoster("us", try changedRoster(bed))
        #expect(try bed.refresh("us").error == nil)
        let before = try changes(bed)
        #expect(ids(before).contains(Self.tideLog))
        let url = try #require(entries(before).first?["storeUrl"] as? String)
        #expect(url.contains("pt=1234567") && url.contains("uo=4"), "\(url)")

        try bed.writeOverlay("excluded: [\(Self.tideLog)]\n")
        #expect(try bed.reload().error == nil)
        let after = try changes(bed)
        #expect(!ids(after).contains(Self.tideLog))
        #expect(ids(after).count == 3)
        #expect(after.int("latest") == 4, "latest is what was recorded")

        // Knotbook is the host: bumping its version records nothing visible.
        var body = try changedRoster(bed)
        var results = body["results"] as! [[String: Any]]
        let index = results.firstIndex { ($0["trackId"] as? NSNumber)?.intValue == Self.knotbook }!
        results[index]["version"] = "9.9.9"
        body["results"] = results
        try bed.overrideRoster("us", body)
        #expect(try bed.refresh("us").error == nil)
        #expect(try changes(bed).int("latest") == 4)
    }

    @Test(
        "bad parameters: a limit outside 1...1000, an unknown storefront or host; a storefront not kept warm has none")
    func parameters() throws {
        let bed = try Self.bed()
        try bed.start(environment: Self.environment(bed))
        try warm(bed)
        for limit in [0, 1001] {
            #expect(try changes(bed, ["limit": limit]).error == "org.varlink.service.InvalidParameter")
        }
        #expect(try changes(bed, ["since": -1]).error == "org.varlink.service.InvalidParameter")
        #expect(try changes(bed, ["storefront": "zz"]).error == "io.showcase.Roster.UnknownStorefront")
        #expect(try changes(bed, ["host": "com.example.Nope"]).error == "io.showcase.Roster.UnknownHost")
        let requestsBefore = bed.requests(matching: "country=jp").count
        let jp = try changes(bed, ["storefront": "jp"])
        #expect(jp.error == nil)
        #expect(jp.int("latest") == 0 && entries(jp).isEmpty)
        #expect(bed.requests(matching: "country=jp").count == requestsBefore, "no fetch")
    }
}
