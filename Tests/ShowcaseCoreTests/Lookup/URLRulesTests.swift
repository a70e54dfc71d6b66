import Foundation
import ShowcaseCore
import Testing

/// Upstream URLs end up in `href` and `src` attributes: only App Store pages and icons under `lookup.artwork_hosts`
/// may be served, whatever a compromised upstream or a proxy sends.
@Suite("URL rules for upstream store and icon URLs")
struct URLRulesTests {
    static let knotbookStoreURL = "https://apps.apple.com/us/app/knotbook/id1641000102?uo=4"

    /// The us fixture with Knotbook's `trackViewUrl` or `artworkUrl512` replaced by `value` (JSON-escaped).
    static func usBody(knotbook field: String, _ value: String) throws -> Data {
        let text = String(decoding: Fixtures.data("roster-1641000001-us.json"), as: UTF8.self)
        let row = try #require(
            LookupResponse.decode(Data(text.utf8)).results.first { $0.trackId == Fixtures.knotbookId })
        let original = try #require(field == "trackViewUrl" ? row.trackViewUrl : row.artworkUrl512)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let encoded = String(decoding: try encoder.encode(value), as: UTF8.self)
        let written = #""\#(field)":"\#(original)""#
        #expect(text.components(separatedBy: written).count == 2, "\(written) is not once in the fixture")
        return Data(text.replacingOccurrences(of: written, with: #""\#(field)":\#(encoded)"#).utf8)
    }

    static let hostileStoreURLs = [
        "javascript:alert(document.domain)//",
        "data:text/html,<script>alert(1)</script>",
        "https://evil.example/us/app/x/id1",
        "https://apps.apple.com.evil.example/us/app/knotbook/id1641000102",
        "https://user@apps.apple.com/us/app/knotbook/id1641000102",
        "https://apps.apple.com@evil.example/us/app/knotbook/id1641000102",
        "http://apps.apple.com/us/app/knotbook/id1641000102",
        "https://apps.apple.com:8443/us/app/knotbook/id1641000102",
        "https://apps.apple.com./us/app/knotbook/id1641000102",
        "https://apps.apple.com\\@evil.example/us/app/x/id1",
        "java\tscript:alert(1)//https://apps.apple.com/us/",
        " https://apps.apple.com/us/app/knotbook/id1641000102",
        "https://apps.apple.com/us/app/knot book/id1641000102",
        "https://apps.apple.com/us/app/knotbook/id1641000102\n",
        "https://apps.apple.com",
        "https://apps.apple.com?x=/us/",
        "https://apps.apple.com/us/../../evil",
        "https://apps.apple.com/us/%2e%2e/evil",
        "//apps.apple.com/us/app/knotbook/id1641000102",
        "/us/app/knotbook/id1641000102",
    ]

    static let hostileIconURLs = [
        "javascript:alert(document.domain)//",
        "http://evil/icon.png",
        "data:image/svg+xml,<svg onload=alert(1)>",
        "https://mzstatic.com.evil/image/icon.png",
        "https://mzstatic.com/image/icon.png",
        "https://evilmzstatic.com/image/icon.png",
        "http://is1-ssl.mzstatic.com/image/icon.png",
        "https://user@is1-ssl.mzstatic.com/image/icon.png",
        "https://is1-ssl.mzstatic.com:8443/image/icon.png",
        "https://is1-ssl.mzstatic.com/image/ icon.png",
    ]

    /// Each hostile value in the field it poisons: Knotbook's store URL or its preferred icon.
    static let hostileRows =
        hostileStoreURLs.map { ("trackViewUrl", $0) } + hostileIconURLs.map { ("artworkUrl512", $0) }

    @Test(
        "a row whose store URL is not an App Store page, or whose icon is outside lookup.artwork_hosts, is dropped and counted",
        arguments: hostileRows)
    func hostileRow(_ field: String, _ url: String) throws {
        let roster = try Roster(
            artistId: Fixtures.artistId, storefront: .unitedStates, body: try Self.usBody(knotbook: field, url),
            fetchedAt: Date())
        let reason = field == "trackViewUrl" ? URLRules.foreignStoreURL : URLRules.foreignIconURL
        #expect(roster.apps.count == 16)
        #expect(roster.app(id: Fixtures.knotbookId) == nil)
        #expect(roster.droppedRows.reasons == [reason: 1])
        #expect(roster.apps.allSatisfy { URLRules.standard.dropReason(for: $0) == nil })
    }

    @Test("the fixtures' own URLs all pass: good rows survive")
    func fixturesPass() throws {
        for code in ["us", "de", "jp"] {
            let roster = Fixtures.roster(code)
            #expect(roster.droppedRows.count == 0)
            #expect(roster.apps.count > 0)
        }
        #expect(Fixtures.lamplightRoster().droppedRows.count == 0)
    }

    @Test("a body whose every store URL is foreign is MalformedResponse naming the reason")
    func allForeign() throws {
        let text = String(decoding: Fixtures.data("roster-1641000001-us.json"), as: UTF8.self)
            .replacingOccurrences(of: "https://apps.apple.com/us/app/", with: "https://evil.example/us/app/")
        do {
            _ = try Roster(
                artistId: Fixtures.artistId, storefront: .unitedStates, body: Data(text.utf8), fetchedAt: Date())
            Issue.record("a roster of foreign store URLs decoded")
        } catch {
            guard case .malformed(let detail) = error else {
                Issue.record("not malformed: \(error)")
                return
            }
            #expect(detail.contains("no usable app"))
            #expect(detail.contains("17 \(URLRules.foreignStoreURL)"))
        }
    }

    @Test("a hostile row does not take the trackId of a good row after it")
    func hostileRowDoesNotShadow() throws {
        let text = String(decoding: Fixtures.data("roster-1641000001-us.json"), as: UTF8.self)
        let end = try #require(text.range(of: "]", options: .backwards))
        let good =
            #"{"wrapperType":"software","kind":"software","trackId":1641009999,"artistId":1641000001,"#
            + #""trackName":"Good","bundleId":"com.example.Good","primaryGenreName":"Utilities","#
            + #""minimumOsVersion":"15.0","artworkUrl512":"https://is1-ssl.mzstatic.com/g.png","#
            + #""trackViewUrl":"https://apps.apple.com/us/app/good/id1641009999?uo=4"}"#
        let evil = good.replacingOccurrences(of: "https://apps.apple.com/us/app/good", with: "javascript:alert(1)//")
        let body = String(text[..<end.lowerBound]) + ", " + evil + ", " + good + "]}"
        let roster = try Roster(
            artistId: Fixtures.artistId, storefront: .unitedStates, body: Data(body.utf8), fetchedAt: Date())
        #expect(roster.app(id: 1_641_009_999)?.storeUrl == "https://apps.apple.com/us/app/good/id1641009999?uo=4")
        #expect(roster.droppedRows.reasons == [URLRules.foreignStoreURL: 1])
    }

    @Test("store URLs on Apple's two hosts pass in any case, with no port or 443")
    func storeURLsAllowed() {
        let rules = URLRules.standard
        for url in [
            "https://apps.apple.com/us/app/knotbook/id1641000102?uo=4",
            "https://itunes.apple.com/us/app/knotbook/id1641000102?mt=8",
            "HTTPS://Apps.Apple.COM/us/app/knotbook/id1641000102",
            "https://apps.apple.com:443/us/app/knotbook/id1641000102",
            "https://apps.apple.com/jp/app/%E3%83%8E%E3%83%BC%E3%83%88/id1641000102?uo=4&pt=1#x",
        ] {
            #expect(rules.allowsStoreURL(url), "\(url)")
        }
        for url in Self.hostileStoreURLs + [""] {
            #expect(!rules.allowsStoreURL(url), "\(url)")
        }
    }

    @Test("a '*.' label matches one or more labels, never the bare domain or a look-alike")
    func wildcard() throws {
        let rules = URLRules(artworkHosts: [try URLPrefix(parsing: "https://*.mzstatic.com/")])
        for url in [
            "https://is1-ssl.mzstatic.com/image/thumb/a.png", "https://a.b.c.mzstatic.com/x",
            "HTTPS://IS1-SSL.MZSTATIC.COM/x",
        ] {
            #expect(rules.allowsIconURL(url), "\(url)")
        }
        for url in Self.hostileIconURLs + ["https://is1-ssl.mzstatic.com", "https://a..mzstatic.com/x"] {
            #expect(!rules.allowsIconURL(url), "\(url)")
        }
    }

    @Test("a prefix without a wildcard matches its exact host, its port as written and its path")
    func exactPrefix() throws {
        let rules = URLRules(artworkHosts: [
            try URLPrefix(parsing: "https://CDN.example.com/icons/"),
            try URLPrefix(parsing: "http://127.0.0.1:8080/"),
        ])
        #expect(rules.allowsIconURL("https://cdn.example.com/icons/a.png"))
        #expect(!rules.allowsIconURL("https://cdn.example.com/other/a.png"))
        #expect(!rules.allowsIconURL("https://cdn.example.com/icons"))
        #expect(!rules.allowsIconURL("https://x.cdn.example.com/icons/a.png"))
        #expect(!rules.allowsIconURL("https://cdn.example.com:443/icons/a.png"))
        #expect(!rules.allowsIconURL("https://cdn.example.com/icons/../../secret"))
        #expect(rules.allowsIconURL("http://127.0.0.1:8080/a.png"))
        #expect(!rules.allowsIconURL("http://127.0.0.1:8081/a.png"))
        #expect(!rules.allowsIconURL("http://127.0.0.1/a.png"))
        #expect(!rules.allowsIconURL("https://127.0.0.1:8080/a.png"))
    }

    @Test(
        "an artwork host prefix that is not https, has userinfo or a misplaced '*' is refused with its reason",
        arguments: [
            ("", URLPrefixError.Reason.empty),
            ("mzstatic.com", .notAPrefix),
            ("https://*.mzstatic.com", .notAPrefix),
            ("https://", .notAPrefix),
            ("https://is1 .mzstatic.com/", .forbiddenCharacter),
            ("https://is1.mzstatic.com/\t", .forbiddenCharacter),
            ("https://user@cdn.example.com/", .userinfo),
            ("https://cdn.example.com/?a=1", .queryOrFragment),
            ("https://cdn.example.com/#x", .queryOrFragment),
            ("https://is*.mzstatic.com/", .misplacedWildcard),
            ("https://*mzstatic.com/", .misplacedWildcard),
            ("https://a.*.mzstatic.com/", .misplacedWildcard),
            ("https://*.*.mzstatic.com/", .misplacedWildcard),
            ("*.mzstatic.com/", .misplacedWildcard),
            ("https://*.com/", .wildcardTooBroad),
            ("http://cdn.example.com/", .notHTTPS),
            ("http://localhost:8080/", .notHTTPS),
            ("http://*.0.0.1/", .notHTTPS),
            ("ftp://cdn.example.com/", .notHTTPS),
            ("javascript://cdn.example.com/", .notHTTPS),
        ])
    func invalidPrefix(_ text: String, _ reason: URLPrefixError.Reason) {
        #expect(throws: URLPrefixError(text: text, reason: reason)) { try URLPrefix(parsing: text) }
    }

    @Test("the loopback prefix http://127.0.0.1:PORT/ and https prefixes are accepted")
    func validPrefixes() throws {
        for text in [
            "https://*.mzstatic.com/", "http://127.0.0.1:8080/", "http://127.0.0.1/", "https://cdn.example.com:8443/i/",
        ] {
            #expect(try URLPrefix(parsing: text).text == text)
        }
    }

    @Test("a cached roster decoded under narrower artwork hosts keeps only the apps they allow; none is a miss")
    func cacheObeysCurrentRules() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("showcase-urlrules-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = FileCache(directory: directory)
        let wide = URLRules(artworkHosts: [.appleArtwork, try URLPrefix(parsing: "https://icons.example.com/")])
        let body = try Self.usBody(knotbook: "artworkUrl512", "https://icons.example.com/knotbook.png")
        let roster = try Roster(
            artistId: Fixtures.artistId, storefront: .unitedStates, body: body, fetchedAt: Date(), urlRules: wide)
        #expect(roster.apps.count == 17)
        try cache.store(roster)
        let entry = try #require(cache.listRosters().first)

        let listed = try #require(cache.loadRoster(listed: entry, urlRules: .standard))
        #expect(listed.apps.count == 16)
        #expect(listed.app(id: Fixtures.knotbookId) == nil)
        #expect(listed.droppedRows.reasons == [URLRules.foreignIconURL: 1])
        let full = try #require(cache.loadRoster(artistId: Fixtures.artistId, storefront: .unitedStates))
        #expect(full.apps.count == 16)
        #expect(cache.loadRoster(listed: entry, urlRules: wide)?.apps.count == 17)
        // Sharing records with a sibling checked under other rules does not skip the check.
        let sibling = try #require(cache.loadRoster(listed: entry, urlRules: wide))
        let shared = try #require(cache.loadRoster(listed: entry, sharingWith: sibling, urlRules: .standard))
        #expect(shared.app(id: Fixtures.knotbookId) == nil)
        #expect(shared.apps.allSatisfy { app in sibling.app(id: app.id)!.sharesAppRecord(with: app) })
        #expect(cache.loadRoster(listed: entry, sharingWith: shared, urlRules: .standard)?.apps.count == 16)

        let elsewhere = URLRules(artworkHosts: [try URLPrefix(parsing: "https://cdn.example.org/")])
        #expect(cache.loadRoster(listed: entry, urlRules: elsewhere) == nil)
    }
}
