import Foundation
import ShowcaseCore
import Testing

@Suite("File cache")
struct FileCacheTests {
    let directory: URL
    let cache: FileCache

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("showcase-cache-\(UUID().uuidString)", isDirectory: true)
        cache = FileCache(directory: directory)
    }

    func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("a fetch time just before a whole second still reads as that second after a load, as replies show it")
    func fetchTimeNeverRoundsUp() throws {
        let fetchedAt = Date(timeIntervalSince1970: 1_800_000_042.9996)
        try cache.store(Fixtures.roster("jp", fetchedAt: fetchedAt))
        let loaded = try #require(cache.loadRoster(artistId: Fixtures.artistId, storefront: Fixtures.storefront("jp")))
        #expect(RFC3339.seconds(loaded.fetchedAt) == RFC3339.seconds(fetchedAt))
        #expect(RFC3339.seconds(loaded.fetchedAt) == "2027-01-15T08:00:42Z")
        #expect(fetchedAt.timeIntervalSince(loaded.fetchedAt) < 0.001)
    }

    @Test("a stored roster loads back with its apps and its fetch time from inside the payload")
    func roundTrip() throws {
        let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000.25)
        try cache.store(Fixtures.roster("jp", fetchedAt: fetchedAt))
        // The file's mtime is irrelevant: touch it far into the past.
        let url = cache.rosterURL(artistId: Fixtures.artistId, storefront: Fixtures.storefront("jp"))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: url.path)
        let loaded = try #require(cache.loadRoster(artistId: Fixtures.artistId, storefront: Fixtures.storefront("jp")))
        #expect(loaded.fetchedAt == fetchedAt)
        #expect(loaded.hasSameContent(as: Fixtures.roster("jp")))
        #expect(loaded.body == Fixtures.data("roster-1641000001-jp.json"))
        #expect(files().count == 1)
    }

    @Test("a cache file truncated mid-write reads as a miss")
    func truncatedIsMiss() throws {
        try cache.store(Fixtures.roster("us"))
        let url = cache.rosterURL(artistId: Fixtures.artistId, storefront: .unitedStates)
        let data = try Data(contentsOf: url)
        for length in [0, 10, data.count / 2, data.count - 1] {
            try data.prefix(length).write(to: url)
            #expect(cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates) == nil)
        }
    }

    @Test("an unreadable or foreign file is a miss, never a crash")
    func foreignIsMiss() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = cache.rosterURL(artistId: Fixtures.artistId, storefront: .unitedStates)
        for content in [Data("hello".utf8), Fixtures.data("roster-1641000001-us.json"), Data([0xFF, 0x0A, 0x00])] {
            try content.write(to: url)
            #expect(cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates) == nil)
        }
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)  // a directory
        #expect(cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates) == nil)
    }

    @Test("a file altered after writing (same length) is a miss")
    func alteredIsMiss() throws {
        try cache.store(Fixtures.roster("us"))
        let url = cache.rosterURL(artistId: Fixtures.artistId, storefront: .unitedStates)
        var data = try Data(contentsOf: url)
        let index = data.lastIndex(of: UInt8(ascii: "9"))!
        data[index] = UInt8(ascii: "8")
        try data.write(to: url)
        #expect(cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates) == nil)
    }

    @Test("a file copied under another storefront's name is not served for that storefront")
    func copiedFileIsMiss() throws {
        try cache.store(Fixtures.roster("us"))
        try FileManager.default.copyItem(
            at: cache.rosterURL(artistId: Fixtures.artistId, storefront: .unitedStates),
            to: cache.rosterURL(artistId: Fixtures.artistId, storefront: Fixtures.storefront("de")))
        #expect(cache.loadRoster(artistId: Fixtures.artistId, storefront: Fixtures.storefront("de")) == nil)
        #expect(cache.loadAllRosters().count == 1)
    }

    @Test("a rewrite replaces the previous roster and leaves no temporary files")
    func rewrite() throws {
        try cache.store(Fixtures.roster("us", fetchedAt: Date(timeIntervalSince1970: 1)))
        try cache.store(Fixtures.roster("us", fetchedAt: Date(timeIntervalSince1970: 2)))
        #expect(files().count == 1)
        #expect(
            cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates)?.fetchedAt
                == Date(timeIntervalSince1970: 2))
    }

    @Test("a failed write leaves the previous roster intact and says what to do")
    func failedWrite() throws {
        try cache.store(Fixtures.roster("us", fetchedAt: Date(timeIntervalSince1970: 1)))
        #expect(throws: CacheError.self) { try cache.store(Fixtures.roster("us").compacted()) }
        #expect(
            cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates)?.fetchedAt
                == Date(timeIntervalSince1970: 1))
        let blocked = FileCache(directory: URL(fileURLWithPath: "/dev/null/showcase"))
        #expect {
            try blocked.store(Fixtures.roster("us"))
        } throws: { error in
            (error as? CacheError)?.description.contains("cache.directory") == true
        }
    }

    @Test("two bundle ids that sanitize alike get different files")
    func sanitizeCollision() throws {
        let a = cache.identityURL(bundleId: "com.example/app")
        let b = cache.identityURL(bundleId: "com.example_app")
        #expect(FileCache.sanitize("com.example/app") == FileCache.sanitize("com.example_app"))
        #expect(a != b)
        try cache.store(
            HostIdentity(
                bundleId: "com.example/app", artistId: 1, trackId: 2, storefront: .unitedStates,
                resolvedAt: Date(timeIntervalSince1970: 5)))
        try cache.store(
            HostIdentity(
                bundleId: "com.example_app", artistId: 3, trackId: 4, storefront: .unitedStates,
                resolvedAt: Date(timeIntervalSince1970: 5)))
        #expect(cache.loadIdentity(bundleId: "com.example/app")?.artistId == 1)
        #expect(cache.loadIdentity(bundleId: "com.example_app")?.artistId == 3)
    }

    @Test(
        "no key can escape the cache directory",
        arguments: ["../../etc/passwd", "/etc/passwd", "..", ".hidden", "a\u{0}b", "ü/ñ"])
    func cannotEscape(bundleId: String) {
        // Checked on the raw path string: URL's own path parsing would hide a "/" or ".." inside the name.
        let path = cache.identityURL(bundleId: bundleId).path
        let prefix = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
        #expect(path.hasPrefix(prefix), "\(path) is not inside \(prefix)")
        let name = path.dropFirst(prefix.count)
        #expect(!name.isEmpty)
        #expect(!name.contains("/"), "\(name) names a subdirectory or escapes")
        #expect(!name.hasPrefix("."), "\(name) is hidden, or . or ..")
        #expect(!name.contains("\u{0}"), "\(name) holds a NUL")
    }

    @Test("a host identity is cached so it is resolved once")
    func identityRoundTrip() throws {
        let identity = HostIdentity(
            bundleId: Fixtures.tideLog, artistId: Fixtures.artistId, trackId: Fixtures.tideLogId,
            storefront: Fixtures.storefront("de"), resolvedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try cache.store(identity)
        #expect(cache.loadIdentity(bundleId: Fixtures.tideLog) == identity)
        #expect(cache.loadIdentity(bundleId: Fixtures.knotbook) == nil)
        try Data("{}".utf8).write(to: cache.identityURL(bundleId: Fixtures.tideLog))
        #expect(cache.loadIdentity(bundleId: Fixtures.tideLog) == nil)
    }

    @Test("all cached rosters load at startup and unusable files are skipped")
    func loadAll() throws {
        for code in ["us", "de", "jp"] { try cache.store(Fixtures.roster(code)) }
        try Data("junk".utf8).write(to: directory.appendingPathComponent("roster-1-us-0000000000000000.json"))
        try cache.store(
            HostIdentity(bundleId: "a.b", artistId: 1, trackId: 2, storefront: .unitedStates, resolvedAt: Date()))
        let loaded = cache.loadAllRosters()
        #expect(Set(loaded.map(\.storefront.code)) == ["us", "de", "jp"])
    }

    @Test("the fast startup load gives exactly the apps a full load decodes, whatever characters they hold")
    func fastLoadMatchesFullLoad() throws {
        let jp = Fixtures.roster("jp")
        var tricky = jp.apps[0]
        tricky.name = "Back\\slash\nnew line\u{1F}unit +-"
        tricky.formattedPrice = nil
        tricky.version = ""
        tricky.averageUserRating = 4.56789
        let roster = Roster(
            artistId: jp.artistId, storefront: jp.storefront, fetchedAt: jp.fetchedAt, resultCount: jp.resultCount,
            apps: [tricky] + jp.apps, body: jp.body)
        try cache.store(roster)
        try cache.store(Fixtures.roster("us"))
        let loaded = try #require(cache.loadAllRosters().first { $0.storefront == jp.storefront })
        #expect(loaded.apps == roster.apps)
        #expect(loaded.body == nil)
        #expect(loaded.fetchedAt == jp.fetchedAt)
        #expect(cache.loadRoster(artistId: jp.artistId, storefront: jp.storefront)?.hasSameContent(as: jp) == true)
    }

    @Test("the header listing names every cached roster without decoding it")
    func listing() throws {
        for code in ["us", "de"] { try cache.store(Fixtures.roster(code, fetchedAt: Date(timeIntervalSince1970: 7))) }
        try Data("junk\n".utf8).write(to: directory.appendingPathComponent("roster-1-us-0000000000000000.json"))
        let entries = cache.listRosters()
        #expect(Set(entries.map(\.storefront.code)) == ["us", "de"])
        #expect(
            entries.allSatisfy { $0.fetchedAt == Date(timeIntervalSince1970: 7) && $0.artistId == Fixtures.artistId })
    }

    @Test("a listed roster decodes later to exactly the apps a full load gives, without its body")
    func listedRosterDecodesLater() throws {
        try cache.store(Fixtures.roster("jp", fetchedAt: Date(timeIntervalSince1970: 7)))
        let entry = try #require(cache.listRosters().first)
        let decoded = try #require(cache.loadRoster(listed: entry))
        #expect(decoded.apps == Fixtures.roster("jp").apps)
        #expect(decoded.resultCount == Fixtures.roster("jp").resultCount)
        #expect(decoded.fetchedAt == Date(timeIntervalSince1970: 7))
        #expect(decoded.body == nil)
    }

    @Test("decoding next to another storefront's roster gives this file's apps, whatever the other one holds")
    func sharingNeverSubstitutesContent() throws {
        let jp = Fixtures.roster("jp")
        try cache.store(jp)
        let entry = try #require(cache.listRosters().first)
        var apps = jp.apps
        apps[0].name = "Another name"
        apps[1].iconUrl = "https://example.invalid/icon.png"
        apps[2].formattedPrice = nil
        apps[3].version = "0.0.1"
        let sibling = Roster(
            artistId: jp.artistId, storefront: .unitedStates, fetchedAt: jp.fetchedAt, resultCount: jp.resultCount,
            apps: apps, body: nil)
        let decoded = try #require(cache.loadRoster(listed: entry, sharingWith: sibling))
        #expect(decoded.apps == jp.apps)
        #expect(jp.sharingStorage(with: sibling).apps == jp.apps)
        #expect(jp.sharingStorage(with: sibling).hasSameContent(as: jp))
    }

    @Test("a listed roster altered, truncated or replaced since the listing is a miss, never a crash")
    func listedRosterChangedSinceIsMiss() throws {
        try cache.store(Fixtures.roster("us", fetchedAt: Date(timeIntervalSince1970: 7)))
        let entry = try #require(cache.listRosters().first)
        let url = cache.rosterURL(artistId: Fixtures.artistId, storefront: .unitedStates)
        let original = try Data(contentsOf: url)

        var altered = original
        let appsStart = try #require(altered.firstIndex(of: UInt8(ascii: "\n"))) + 1
        altered[appsStart] = altered[appsStart] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        try altered.write(to: url)
        #expect(cache.loadRoster(listed: entry) == nil)

        try original.prefix(appsStart + 10).write(to: url)
        #expect(cache.loadRoster(listed: entry) == nil)

        try cache.store(Fixtures.roster("us", fetchedAt: Date(timeIntervalSince1970: 8)))
        #expect(cache.loadRoster(listed: entry) == nil)
        try original.write(to: url)
        #expect(cache.loadRoster(listed: entry) != nil)
    }

    @Test("a file whose apps line holds a name, version or price over its bound is a miss (planted: SPEC §20)")
    func oversizedLineUsesBody() throws {
        let jp = Fixtures.roster("jp")
        for field in ["name", "version", "price"] {
            var apps = jp.apps
            let huge = String(repeating: "N", count: 100_000)
            switch field {
            case "name": apps[0].name = huge
            case "version": apps[1].version = huge
            default: apps[2].formattedPrice = huge
            }
            try cache.store(
                Roster(
                    artistId: jp.artistId, storefront: jp.storefront, fetchedAt: jp.fetchedAt,
                    resultCount: jp.resultCount, apps: apps, body: jp.body))
            let entry = try #require(cache.listRosters().first)
            #expect(cache.loadRoster(listed: entry) == nil, "\(field)")
        }
    }

    @Test("a missing cache directory is simply empty")
    func missingDirectory() {
        #expect(cache.loadAllRosters().isEmpty)
        #expect(cache.loadRoster(artistId: 1, storefront: .unitedStates) == nil)
    }
}

@Suite("Digests")
struct DigestTests {
    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func sha256Vectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(Array(repeating: UInt8(ascii: "a"), count: 1000)).count == 64)
    }

    @Test("FNV-1a 64 matches its reference values")
    func fnvVectors() {
        #expect(FNV1a.hex(Array("".utf8)) == "cbf29ce484222325")
        #expect(FNV1a.hex(Array("a".utf8)) == "af63dc4c8601ec8c")
    }
}
