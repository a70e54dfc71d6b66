import Foundation
import ShowcaseCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs written by an attacker or a broken upstream: each must be refused or be a miss, never a crash, a
/// hang or a silently wrong roster.
@Suite("Hostile files and upstream bodies")
struct HostileInputTests {
    let directory: URL
    let cache: FileCache

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("showcase-hostile-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        cache = FileCache(directory: directory)
    }

    /// The us fixture with `transform` applied to its text.
    func usBody(_ transform: (String) -> String) -> Data {
        Data(transform(String(decoding: Fixtures.data("roster-1641000001-us.json"), as: UTF8.self)).utf8)
    }

    func malformedDetail(_ body: Data, storefront: Storefront = .unitedStates) -> String? {
        do {
            _ = try Roster(artistId: Fixtures.artistId, storefront: storefront, body: body, fetchedAt: Date())
            return nil
        } catch {
            guard case .malformed(let detail) = error else { return "not malformed: \(error)" }
            return detail
        }
    }

    // MARK: Cache headers

    @Test(
        "a cache header with an absurd section length is a miss, never an overflow trap",
        arguments: ["appsBytes", "bodyBytes"])
    func absurdLength(field: String) throws {
        try cache.store(Fixtures.roster("us"))
        let url = cache.rosterURL(artistId: Fixtures.artistId, storefront: .unitedStates)
        let text = try String(contentsOf: url, encoding: .utf8)
        for absurd in ["9223372036854775807", "-9223372036854775808", "9223372036854775806", "-1"] {
            let altered = text.replacingOccurrences(
                of: #""\#(field)":[0-9]+"#, with: "\"\(field)\":\(absurd)", options: .regularExpression)
            #expect(altered != text)
            try Data(altered.utf8).write(to: url)
            #expect(cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates) == nil)
            let listed = cache.listRosters()
            #expect(listed.count == 1)
            for entry in listed { #expect(cache.loadRoster(listed: entry) == nil) }
        }
    }

    @Test("a cache header with out-of-range times and counts loads or misses without trapping")
    func absurdTimes() throws {
        try cache.store(Fixtures.roster("us"))
        let url = cache.rosterURL(artistId: Fixtures.artistId, storefront: .unitedStates)
        let text = try String(contentsOf: url, encoding: .utf8)
        for (field, value) in [
            ("fetchedAtMilliseconds", "9223372036854775807"), ("fetchedAtMilliseconds", "-9223372036854775808"),
            ("resultCount", "9223372036854775807"), ("artistId", "-9223372036854775808"),
        ] {
            let altered = text.replacingOccurrences(
                of: #""\#(field)":[0-9]+"#, with: "\"\(field)\":\(value)", options: .regularExpression)
            try Data(altered.utf8).write(to: url)
            _ = cache.loadAllRosters()
            _ = cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates)
        }
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    // MARK: Files that are not regular files

    @Test("a FIFO in the cache directory is a miss at once, not a hang")
    func fifoInCache() throws {
        let url = cache.rosterURL(artistId: Fixtures.artistId, storefront: .unitedStates)
        #expect(mkfifo(url.path, 0o600) == 0)
        let identity = cache.identityURL(bundleId: Fixtures.tideLog)
        #expect(mkfifo(identity.path, 0o600) == 0)
        #expect(cache.listRosters().isEmpty)
        #expect(cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates) == nil)
        #expect(cache.loadIdentity(bundleId: Fixtures.tideLog) == nil)
        #expect(cache.loadAllDiagnostics().isEmpty)
    }

    @Test("reading a FIFO, a device or a directory is an error naming the path and what it is")
    func notRegular() throws {
        let fifo = directory.appendingPathComponent("pipe.yaml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "FIFO"), ("/dev/zero", "character device"), (directory.path, "directory")] {
            #expect {
                try RegularFile.read(path: path, limit: 1 << 20)
            } throws: { error in
                let text = "\(error)"
                return text.contains(path) && text.contains(kind) && text.contains("regular file")
            }
            #expect(throws: RegularFileError.self) { try RegularFile.prefix(path: path, count: 10) }
        }
        #expect(throws: RegularFileError(path: "/nonexistent/x", reason: .missing)) {
            try RegularFile.read(path: "/nonexistent/x", limit: 10)
        }
        let small = directory.appendingPathComponent("small").path
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: small))
        #expect(try RegularFile.read(path: small, limit: 10) == Data("0123456789".utf8))
        #expect(try RegularFile.prefix(path: small, count: 4) == Data("0123".utf8))
        #expect(throws: RegularFileError(path: small, reason: .tooLarge(limit: 9))) {
            try RegularFile.read(path: small, limit: 9)
        }
    }

    // MARK: Roster bodies

    @Test("a body whose software rows all drop is malformed, naming how many dropped and why")
    func allRowsDropped() throws {
        let renamed = usBody { $0.replacingOccurrences(of: #""trackName":"#, with: #""trackTitle":"#) }
        let detail = try #require(malformedDetail(renamed))
        #expect(detail.contains("17 rows dropped"))
        #expect(detail.contains("17 without trackName"))

        let kindDetail = try #require(malformedDetail(Fixtures.data("renamed-kind-roster-1641000001-us.json")))
        #expect(kindDetail.contains("12 of unknown kind 'ios-software'"))
        #expect(kindDetail.contains("5 of unknown kind 'macos-software'"))
    }

    @Test("rows dropped from a good roster are counted with their reasons")
    func partialDropsCounted() throws {
        let body = usBody {
            $0.replacingOccurrences(
                of: #""trackViewUrl":"https://apps.apple.com/us/app/knotbook/id1641000102?uo=4", "#, with: "")
        }
        let roster = try Roster(artistId: Fixtures.artistId, storefront: .unitedStates, body: body, fetchedAt: Date())
        #expect(roster.apps.count == 16)
        #expect(roster.droppedRows.count == 1)
        #expect(roster.droppedRows.reasons == ["without trackViewUrl": 1])
        #expect(Fixtures.roster("us").droppedRows.count == 0)
    }

    @Test("every fixture row either becomes an app or has a drop reason, never both")
    func dropReasonAgreesWithDecoding() throws {
        for code in ["us", "de", "jp"] {
            let response = try LookupResponse.decode(Fixtures.data("roster-1641000001-\(code).json"))
            for row in response.results {
                #expect((App(row: row) == nil) == (App.dropReason(for: row) != nil))
                var stripped = row
                stripped.trackName = nil
                #expect(App(row: stripped) == nil)
                #expect(App.dropReason(for: stripped) != nil)
            }
        }
    }

    @Test("a repeated trackId keeps its first row and counts the rest as dropped")
    func repeatedTrackId() throws {
        let original = String(decoding: Fixtures.data("roster-1641000001-us.json"), as: UTF8.self)
        // Every row after the artist row, a second time, with another name.
        let start = try #require(original.range(of: "\"results\": ["))
        let rowsStart = try #require(original.range(of: "}, \n{", range: start.upperBound..<original.endIndex))
        let rowsEnd = try #require(original.range(of: "]", options: .backwards))
        let rows = String(original[rowsStart.upperBound..<rowsEnd.lowerBound])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let repeated = rows.replacingOccurrences(of: #""trackName":""#, with: #""trackName":"Copy of "#)
        let text = String(original[..<rowsEnd.lowerBound]) + ", {" + repeated + "]}"
        let roster = try Roster(
            artistId: Fixtures.artistId, storefront: .unitedStates, body: Data(text.utf8), fetchedAt: Date())
        #expect(roster.apps.count == 17)
        #expect(roster.apps.allSatisfy { !$0.name.hasPrefix("Copy of") })
        #expect(roster.droppedRows.reasons == ["with a repeated trackId": 17])
    }

    @Test("more software rows than the request's limit is malformed")
    func overLimit() throws {
        var rows = [#"{"wrapperType":"artist","artistId":1641000001}"#]
        for index in 0..<201 {
            rows.append(
                #"{"wrapperType":"software","kind":"software","trackId":\#(2_000_000 + index),"#
                    + #""artistId":1641000001,"trackName":"App \#(index)","bundleId":"b.\#(index)","#
                    + #""primaryGenreName":"Utilities","minimumOsVersion":"15.0","artworkUrl512":"https://is1-ssl.mzstatic.com/i.png","#
                    + #""trackViewUrl":"https://apps.apple.com/us/app/a/id\#(index)?uo=4"}"#)
        }
        let body = Data(#"{"resultCount":202,"results":[\#(rows.joined(separator: ","))]}"#.utf8)
        let detail = try #require(malformedDetail(body))
        #expect(detail.contains("201 software rows"))
        #expect(detail.contains("limited to 200"))
        let exactly200 = Data(#"{"resultCount":201,"results":[\#(rows.dropLast().joined(separator: ","))]}"#.utf8)
        let roster = try Roster(
            artistId: Fixtures.artistId, storefront: .unitedStates, body: exactly200, fetchedAt: Date())
        #expect(roster.apps.count == 200)
    }

    @Test("a roster whose store URLs name another storefront is malformed: asked for jp, answered for us")
    func wrongStorefront() throws {
        let detail = try #require(
            malformedDetail(Fixtures.data("roster-1641000001-us.json"), storefront: Fixtures.storefront("jp")))
        #expect(detail.contains("asked for jp, answered for us"))
        #expect(
            malformedDetail(Fixtures.data("roster-1641000001-jp.json"), storefront: Fixtures.storefront("jp")) == nil)
    }
}
