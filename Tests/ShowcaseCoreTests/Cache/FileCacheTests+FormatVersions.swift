import Foundation
import ShowcaseCore
import Testing

/// Cache files written by another release. The apps section gained a 16th field (the device families) without a
/// new header version, so the previous release's 15-field lines must still load, and a line this release cannot
/// read (more fields than it writes) must be a miss. The same holds the other way: the previous release splits a
/// line into exactly 15 fields, so this release's 16-field file is a miss there (refetched, never a crash). A
/// version bump would change neither direction's outcome but would make every upgrade start with a cold cache.
extension FileCacheTests {
    /// Rewrites the cached Lamplight roster's apps section line by line with `transform`, fixing the header's
    /// length and checksum as the release that wrote such lines would have.
    func rewriteAppsLines(_ transform: ([UInt8]) -> [UInt8]) throws {
        try cache.store(Fixtures.lamplightRoster())
        let url = cache.rosterURL(artistId: Fixtures.lamplightArtistId, storefront: .unitedStates)
        let data = try Data(contentsOf: url)
        let headerEnd = try #require(data.firstIndex(of: UInt8(ascii: "\n")))
        var header = try #require(try JSONSerialization.jsonObject(with: data[..<headerEnd]) as? [String: Any])
        let appsCount = try #require(header["appsBytes"] as? Int)
        let appsStart = headerEnd + 1
        let lines = data[appsStart..<(appsStart + appsCount)].split(separator: UInt8(ascii: "\n"))
        let apps = Data(lines.map { transform(Array($0)) }.joined(separator: [UInt8(ascii: "\n")]))
        header["appsBytes"] = apps.count
        header["appsFNV1a"] = FNV1a.hex(apps)
        var file = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        file.append(UInt8(ascii: "\n"))
        file.append(apps)
        file.append(data[(appsStart + appsCount)...])
        try file.write(to: url)
    }

    /// Keeps each apps line's first `fields` fields: 17 gives the form of the release before the table's upstream
    /// texts (`contentAdvisoryRating`), 16 the release before genre ids, 15 the release before device families.
    func rewriteAsPreviousRelease(keeping fields: Int = 15) throws {
        try rewriteAppsLines { line in
            Array(
                line.split(separator: 0x1F, omittingEmptySubsequences: false).prefix(fields).joined(separator: [0x1F]))
        }
    }

    @Test("every app keeps its genre id through the cache's lines; a file without them (16 fields) reads its body")
    func genreIdsSurvive() throws {
        let current = Fixtures.lamplightRoster()
        #expect(current.apps.allSatisfy { $0.genreId != nil }, "the fixture has primaryGenreId on every row")
        try cache.store(current)
        let entry = try #require(cache.listRosters().first)
        let stored = try #require(cache.loadRoster(listed: entry))
        #expect(stored.apps.map(\.genreId) == current.apps.map(\.genreId))

        try rewriteAsPreviousRelease(keeping: 16)
        let older = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: older), "a 16-field apps section was a miss")
        #expect(decoded.apps.map(\.genreId) == current.apps.map(\.genreId))
        #expect(decoded.apps.map(\.devices) == current.apps.map(\.devices))
    }

    @Test("a file from the previous release (15 fields, no devices) loads with the real families from its raw body")
    func previousReleaseLinesLoad() throws {
        try rewriteAsPreviousRelease()
        let entry = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: entry), "a 15-field apps section was a miss")
        let current = Fixtures.lamplightRoster()
        #expect(decoded.apps.map(\.id) == current.apps.map(\.id))
        #expect(decoded.apps.map(\.name) == current.apps.map(\.name))
        #expect(decoded.apps.map(\.storeUrl) == current.apps.map(\.storeUrl))
        #expect(decoded.fetchedAt == entry.fetchedAt)
        #expect(decoded.body == nil, "the body is decoded, not kept in memory")
        // Not each platform's default (iPhone and iPad for every iOS app): the watch-only app stays watch-only.
        #expect(decoded.apps.map(\.devices) == current.apps.map(\.devices))
        #expect(decoded.apps.contains { $0.devices == DeviceFamilies(.watch) })
    }

    @Test("a previous-release file whose raw body does not decode still loads from its lines, with platform defaults")
    func previousReleaseLinesWithoutBody() throws {
        try rewriteAsPreviousRelease()
        try replaceBody(with: Data("not a lookup response".utf8))
        let entry = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: entry), "the lines were usable")
        #expect(decoded.apps.map(\.id) == Fixtures.lamplightRoster().apps.map(\.id))
        for app in decoded.apps {
            #expect(app.devices == (app.platform == .ios ? .phoneAndPad : .macOnly), "\(app.id)")
        }
    }

    /// Replaces the cached Lamplight roster's raw body with `body`, fixing the header as a writer would have.
    func replaceBody(with body: Data) throws {
        let url = cache.rosterURL(artistId: Fixtures.lamplightArtistId, storefront: .unitedStates)
        let data = try Data(contentsOf: url)
        let headerEnd = try #require(data.firstIndex(of: UInt8(ascii: "\n")))
        var header = try #require(try JSONSerialization.jsonObject(with: data[..<headerEnd]) as? [String: Any])
        let appsCount = try #require(header["appsBytes"] as? Int)
        let apps = data[(headerEnd + 1)..<(headerEnd + 1 + appsCount)]
        header["bodyBytes"] = body.count
        header["bodyFNV1a"] = FNV1a.hex(body)
        var file = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        file.append(UInt8(ascii: "\n"))
        file.append(apps)
        file.append(UInt8(ascii: "\n"))
        file.append(body)
        try file.write(to: url)
    }

    @Test("a genre id that is not a number is a miss, like any other unreadable line")
    func badGenreIdIsMiss() throws {
        try rewriteAsPreviousRelease(keeping: 16)
        try rewriteAppsLines { line in line + [0x1F] + Array("+games".utf8) }
        let entry = try #require(cache.listRosters().first)
        #expect(cache.loadRoster(listed: entry) == nil)
    }

    @Test("every app keeps its age rating through the cache's lines, and an app without one stays without")
    func upstreamTextsSurvive() throws {
        let fixture = Fixtures.lamplightRoster()
        #expect(fixture.apps.allSatisfy { $0.upstreamTexts["contentAdvisoryRating"] == "4+" })
        var apps = fixture.apps
        apps[0].upstreamTexts = [:]
        apps[1].upstreamTexts["contentAdvisoryRating"] = "17+\u{1F}\\"
        let roster = Roster(
            artistId: fixture.artistId, storefront: fixture.storefront, fetchedAt: fixture.fetchedAt,
            resultCount: fixture.resultCount, apps: apps, body: fixture.body)
        try cache.store(roster)
        let entry = try #require(cache.listRosters().first)
        let stored = try #require(cache.loadRoster(listed: entry))
        #expect(stored.apps.map(\.upstreamTexts) == roster.apps.map(\.upstreamTexts))
        #expect(stored.apps[0].upstreamTexts.isEmpty)
    }

    @Test("a file from the release before contentAdvisoryRating (17 fields) loads, with the ratings from its raw body")
    func releaseBeforeUpstreamTextsLoads() throws {
        let current = Fixtures.lamplightRoster()
        try rewriteAsPreviousRelease(keeping: 17)
        let entry = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: entry), "a 17-field apps section was a miss")
        #expect(decoded.apps.map(\.id) == current.apps.map(\.id))
        #expect(decoded.apps.map(\.genreId) == current.apps.map(\.genreId))
        #expect(decoded.apps.allSatisfy { $0.upstreamTexts["contentAdvisoryRating"] == "4+" })
    }

    @Test("a 17-field line reads without the fields declared after it when its file's raw body does not decode")
    func releaseBeforeUpstreamTextsLinesAlone() throws {
        try rewriteAsPreviousRelease(keeping: 17)
        try replaceBody(with: Data("not a lookup response".utf8))
        let entry = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: entry), "the lines were usable")
        #expect(decoded.apps.map(\.genreId) == Fixtures.lamplightRoster().apps.map(\.genreId))
        #expect(decoded.apps.allSatisfy { $0.upstreamTexts.isEmpty })
    }

    @Test("an apps line with more fields than this release writes (a newer release's file) is a miss, not a crash")
    func newerReleaseLinesAreMiss() throws {
        try rewriteAppsLines { line in line + [0x1F] + Array("7".utf8) }
        let entry = try #require(cache.listRosters().first)
        #expect(cache.loadRoster(listed: entry) == nil)
    }

    /// Rewrites the cached Lamplight roster's header with an extra member of `padding` bytes.
    func padHeader(by padding: Int) throws {
        let url = cache.rosterURL(artistId: Fixtures.lamplightArtistId, storefront: .unitedStates)
        let data = try Data(contentsOf: url)
        let headerEnd = try #require(data.firstIndex(of: UInt8(ascii: "\n")))
        var header = try #require(try JSONSerialization.jsonObject(with: data[..<headerEnd]) as? [String: Any])
        header["padding"] = String(repeating: "p", count: padding)
        var file = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        file.append(data[headerEnd...])
        try file.write(to: url)
    }

    @Test("a header line longer than the listing reads is no roster file for any read, however long it is")
    func overlongHeaderIsMiss() throws {
        try cache.store(Fixtures.lamplightRoster())
        try padHeader(by: 100)  // an unknown member in a short header: still read
        #expect(cache.loadRoster(artistId: Fixtures.lamplightArtistId, storefront: .unitedStates) != nil)
        #expect(cache.listRosters().count == 1)
        try cache.store(Fixtures.lamplightRoster())
        try padHeader(by: 8 << 20)  // an 8 MB header line
        #expect(cache.listRosters().isEmpty)
        #expect(cache.loadRoster(artistId: Fixtures.lamplightArtistId, storefront: .unitedStates) == nil)
    }
}
