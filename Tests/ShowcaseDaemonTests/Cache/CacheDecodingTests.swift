import Foundation
import LookupReplay
import ShowcaseCore
import Testing

/// Startup lists the cache (headers only) and decodes each roster when first needed or in the background after
/// READY. These tests pin what that must never change: a cached roster is served as the cached roster from the
/// first query on, and a file that turns out unusable only when decoded is a miss that gets refetched.
@Suite("Cache decoding after startup", .serialized)
struct CacheDecodingTests {
    /// Warms `us` once, then writes that roster into the cache for `codes` too, all fetched now.
    private func cacheManyStorefronts(_ bed: TestBed, _ codes: [String]) throws -> [Int] {
        bed.storefronts = ["us"]
        try bed.start()
        try bed.waitUntilWarm()
        let warmed = try bed.get("us").appIDs
        try bed.daemon!.stop()
        let cache = FileCache(directory: bed.cacheDirectory)
        let us = try #require(cache.loadRoster(artistId: TestBed.artistId, storefront: .unitedStates))
        for code in codes {
            try cache.store(
                Roster(
                    artistId: us.artistId, storefront: try Storefront(parsing: code), fetchedAt: Date(),
                    resultCount: us.resultCount, apps: us.apps, body: us.body))
        }
        return warmed
    }

    @Test("queries racing the background decoding right after startup all get the cached roster, never warming")
    func listedRostersAreServedImmediately() throws {
        let bed = try TestBed()
        let codes = Storefront.all.prefix(120).map(\.code)
        let warmed = try cacheManyStorefronts(bed, codes)
        #expect(!warmed.isEmpty)

        bed.storefronts = codes
        bed.replay.clearRequests()
        bed.replay.inject(.status(500))  // only the cache can answer
        try bed.start()
        // Pipelined on one connection, in the reverse of the cache's file order, as soon as the socket answers.
        let client = try bed.client()
        for code in codes.reversed() { try client.send("io.showcase.Roster.Get", ["storefront": code]) }
        for code in codes.reversed() {
            let answer = try client.next()
            #expect(answer.error == nil, "\(code): \(answer)")
            #expect(answer.string("state") == "fresh", "\(code): \(answer)")
            #expect(answer.string("storefront") == code)
            #expect(answer.appIDs == warmed, "\(code)")
        }
        #expect(bed.requests(matching: "entity=software").isEmpty)
    }

    @Test("a cached roster found altered only when decoded is a miss: refetched soon, never a crash")
    func alteredListedRosterIsRefetched() throws {
        let bed = try TestBed()
        let warmed = try cacheManyStorefronts(bed, ["de"])
        // Same length, valid header, one byte of the apps section changed: only decoding can tell.
        let url = FileCache(directory: bed.cacheDirectory).rosterURL(
            artistId: TestBed.artistId, storefront: try Storefront(parsing: "de"))
        var data = try Data(contentsOf: url)
        let appsStart = try #require(data.firstIndex(of: UInt8(ascii: "\n"))) + 1
        let digit = try #require(data[appsStart...].firstIndex { (0x30...0x39).contains($0) })
        data[digit] = data[digit] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        try data.write(to: url)

        bed.storefronts = ["us", "de"]
        bed.replay.clearRequests()
        try bed.start()
        #expect(try bed.get("us").string("state") == "fresh")
        // The header said fresh for an hour; the unreadable file must not leave de warming that long.
        let deadline = ContinuousClock.now + .seconds(10)
        var answer = try bed.get("de")
        while answer.string("state") != "fresh", ContinuousClock.now < deadline {
            #expect(answer.error == nil || answer.error == "io.showcase.Roster.Unavailable", "\(answer)")
            usleep(20_000)
            answer = try bed.get("de")
        }
        #expect(answer.string("state") == "fresh", "\(answer)")
        #expect(answer.appIDs == warmed)
        #expect(bed.requests(matching: "entity=software").count == 1)
        #expect(bed.daemon!.log.contains("unreadable"), "\(bed.daemon!.log)")
        #expect(try bed.daemon!.stop() == 0)
    }
}
