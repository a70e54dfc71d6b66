import Foundation
import ShowcaseCore
import Testing

@Suite("Resolution at read time")
struct ResolutionTests {
    let us = Fixtures.roster("us")

    func ids(_ query: RosterQuery, _ roster: Roster? = nil) -> [Int] {
        query.resolve(roster ?? us).map(\.id)
    }

    @Test("the mixed catalog on an iOS query shows no Mac app even when the Mac floor is numerically lower")
    func iosQueryShowsNoMacApp() throws {
        let query = RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, osVersion: OSVersion("11.0"))
        let answer = query.resolve(us)
        #expect(answer.allSatisfy { $0.app.platform == .ios })
        #expect(!answer.contains { $0.id == Fixtures.tideLogMacId })
        #expect(answer.map(\.id) == [Fixtures.lanternlightId])  // only the 9.0 floor fits iOS 11
    }

    @Test("a Mac query shows only Mac apps, filtered by the macOS floor")
    func macQuery() {
        let all = ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .macos))
        #expect(all == [1_641_000_201, 1_641_000_202, 1_641_000_203, 1_641_000_204, 1_641_000_205])
        let old = ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .macos, osVersion: OSVersion("10.15")))
        #expect(old == [1_641_000_201, 1_641_000_205])
    }

    @Test("floors compare numerically: a 9.0 app shows on iOS 18 and an 18.0 app does not show on iOS 9")
    func numericFloors() {
        let ios18 = ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, osVersion: OSVersion("18.0")))
        #expect(ios18.contains(Fixtures.lanternlightId))
        #expect(ios18.contains(Fixtures.galleyId))
        let ios17 = ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, osVersion: OSVersion("17.6.1")))
        #expect(!ios17.contains(Fixtures.galleyId))
        #expect(ios17.contains(1_641_000_109))  // floor 17.2
    }

    @Test("without an OS version no floor applies, but the platform still does")
    func noOSVersion() {
        let answer = ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios))
        #expect(answer.count == 11)
        #expect(!answer.contains(Fixtures.tideLogMacId))
    }

    @Test("the host app never lists itself, by bundle id or by track id")
    func selfExclusion() {
        #expect(!ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios)).contains(Fixtures.tideLogId))
        #expect(!ids(RosterQuery(hostBundleId: "COM.QUIETHARBOR.TIDELOG", platform: .ios)).contains(Fixtures.tideLogId))
        let byId = ids(RosterQuery(hostBundleId: "com.other.Host", hostTrackId: Fixtures.knotbookId, platform: .ios))
        #expect(!byId.contains(Fixtures.knotbookId))
        #expect(byId.contains(Fixtures.tideLogId))
    }

    @Test("order pins apps first without being an allowlist; unknown and repeated ids are ignored")
    func orderPins() {
        let overlay = Overlay(order: [1_641_000_109, 999, 1_641_000_103, 1_641_000_109])
        let answer = ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, overlay: overlay))
        #expect(Array(answer.prefix(2)) == [1_641_000_109, 1_641_000_103])
        #expect(answer.count == 11)
        #expect(
            Array(answer.dropFirst(2))
                == ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios))
                .filter { $0 != 1_641_000_109 && $0 != 1_641_000_103 })
    }

    @Test("excluded apps are hidden, even when pinned")
    func excludedHides() {
        let overlay = Overlay(order: [Fixtures.lanternlightId], excluded: [Fixtures.lanternlightId, 1_641_000_105])
        let answer = ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, overlay: overlay))
        #expect(!answer.contains(Fixtures.lanternlightId))
        #expect(!answer.contains(1_641_000_105))
        #expect(answer.count == 9)
    }

    @Test("filtering is read-time only: the same roster answers different queries without changing")
    func readTimeOnly() {
        let before = us.apps
        _ = RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, overlay: Overlay(excluded: [1_641_000_105]))
            .resolve(us)
        #expect(us.apps == before)
        #expect(ids(RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios)).contains(1_641_000_105))
    }

    @Test("taglines are chosen by exact tag, then language, then default")
    func taglineByLocale() {
        let overlay = Overlay(taglines: [
            Fixtures.knotbookId: .localized(
                default: "Every knot, explained", byLocale: ["de": "Jeder Knoten erklärt", "pt-BR": "Cada nó"]),
            Fixtures.lanternlightId: .plain("A light in the dark"),
        ])
        func tagline(_ locale: String?, _ id: Int = Fixtures.knotbookId, roster: Roster? = nil) -> String? {
            RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, locale: locale, overlay: overlay)
                .resolve(roster ?? us).first { $0.id == id }?.tagline
        }
        #expect(tagline("de") == "Jeder Knoten erklärt")
        #expect(tagline("de-AT") == "Jeder Knoten erklärt")
        #expect(tagline("pt_BR") == "Cada nó")
        #expect(tagline("pt-PT") == "Every knot, explained")
        #expect(tagline("ja") == "Every knot, explained")
        #expect(tagline("ja", Fixtures.lanternlightId) == "A light in the dark")
        #expect(tagline("ja", 1_641_000_105) == nil)
        #expect(tagline("PT-br-x-private") == "Cada nó")
    }

    @Test("without a locale the storefront's primary language picks the tagline")
    func defaultLocale() {
        let overlay = Overlay(taglines: [Fixtures.knotbookId: .localized(default: nil, byLocale: ["ja": "結び目図鑑"])])
        let jp = RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, overlay: overlay)
            .resolve(Fixtures.roster("jp")).first { $0.id == Fixtures.knotbookId }
        #expect(jp?.tagline == "結び目図鑑")
        let de = RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, overlay: overlay)
            .resolve(Fixtures.roster("de")).first { $0.id == Fixtures.knotbookId }
        #expect(de != nil)
        #expect(de?.tagline == nil)
    }

    @Test("the tagline lookup chain follows RFC 4647, trying a tag without its script right after it")
    func lookupChain() {
        #expect(Tagline.lookupChain(for: "zh-Hant-TW") == ["zh-hant-tw", "zh-tw", "zh-hant", "zh"])
        #expect(Tagline.lookupChain(for: "zh_Hans_CN") == ["zh-hans-cn", "zh-cn", "zh-hans", "zh"])
        #expect(Tagline.lookupChain(for: "pt-BR") == ["pt-br", "pt"])
        #expect(Tagline.lookupChain(for: "de-DE-x-a") == ["de-de-x-a", "de-de", "de"])
        #expect(Tagline.lookupChain(for: "ja") == ["ja"])
    }

    @Test("without a locale the storefront's own locale is the query: br finds pt-BR, cn and tw their Chinese")
    func storefrontLocale() throws {
        #expect(Fixtures.roster("jp").storefront.locale == "ja-JP")
        let overlay = Overlay(taglines: [
            Fixtures.knotbookId: .localized(
                default: "Every knot",
                byLocale: ["pt": "Cada nó (PT)", "pt-BR": "Cada nó", "zh-CN": "每个结", "zh-Hant": "每個結"])
        ])
        func tagline(_ storefront: String) throws -> String? {
            let storefront = try Storefront(parsing: storefront)
            let roster = Roster(
                artistId: us.artistId, storefront: storefront, fetchedAt: us.fetchedAt, resultCount: us.apps.count,
                apps: us.apps, body: nil)
            return RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios, overlay: overlay)
                .resolve(roster).first { $0.id == Fixtures.knotbookId }?.tagline
        }
        #expect(try tagline("br") == "Cada nó")
        #expect(try tagline("pt") == "Cada nó (PT)")
        #expect(try tagline("cn") == "每个结")
        #expect(try tagline("tw") == "每個結")
        #expect(try tagline("hk") == "每個結")
        #expect(try tagline("us") == "Every knot")
    }

    @Test("a single app resolves by id with its tagline and attribution, and excluded apps are not found")
    func resolveApp() {
        let query = RosterQuery(
            hostBundleId: Fixtures.tideLog, platform: .ios, overlay: Overlay(excluded: [1_641_000_105]),
            attribution: Attribution(providerToken: "123"))
        #expect(query.resolveApp(id: Fixtures.tideLogMacId, in: us)?.storeUrl.contains("pt=123") == true)
        #expect(query.resolveApp(id: 1_641_000_105, in: us) == nil)
        #expect(query.resolveApp(id: Fixtures.galleyId, in: Fixtures.roster("jp")) == nil)
    }

    @Test("the host app is not found by id either, as its roster never lists it (by bundle id or pinned trackId)")
    func resolveAppNeverAnswersTheHost() {
        let byBundleID = RosterQuery(hostBundleId: Fixtures.tideLog, platform: .ios)
        #expect(byBundleID.resolveApp(id: Fixtures.tideLogId, in: us) == nil)
        #expect(byBundleID.resolveApp(id: Fixtures.knotbookId, in: us) != nil)
        let byTrackID = RosterQuery(hostBundleId: "com.other.Host", hostTrackId: Fixtures.knotbookId, platform: .ios)
        #expect(byTrackID.resolveApp(id: Fixtures.knotbookId, in: us) == nil)
    }
}

@Suite("OS versions")
struct OSVersionTests {
    @Test("9.0 is lower than 18.0, compared per component")
    func nineBeforeEighteen() throws {
        #expect(try #require(OSVersion("9.0")) < #require(OSVersion("18.0")))
        #expect(try #require(OSVersion("10.13")) < #require(OSVersion("10.15")))
        #expect(try #require(OSVersion("10.9")) < #require(OSVersion("10.13")))
        #expect(try #require(OSVersion("17.6.1")) > #require(OSVersion("17.6")))
    }

    @Test("missing components count as zero")
    func missingComponents() {
        #expect(OSVersion("18") == OSVersion("18.0.0"))
    }

    @Test("surrounding spaces and tabs are ignored, also non-ASCII ones, and the text is kept trimmed")
    func trimsHorizontalWhitespace() throws {
        let cases = [" 17.6 ": "17.6", "\t9.0": "9.0", "\u{00A0}18.0\u{3000}": "18.0", "10.13": "10.13"]
        for (text, trimmed) in cases {
            let version = try #require(OSVersion(text), "\(text.debugDescription)")
            #expect(version.text == trimmed)
            #expect(version == OSVersion(trimmed))
        }
    }

    @Test("components are numeric, trailing zeros dropped, and equal versions hash alike")
    func componentsAndHashing() throws {
        #expect(try #require(OSVersion("18.0.1")).components == [18, 0, 1])
        #expect(try #require(OSVersion("18.0.0")).components == [18])
        #expect(try #require(OSVersion("0")).components == [0])
        #expect(try #require(OSVersion("999999.1")) > #require(OSVersion("99999.9")))
        #expect(Set([OSVersion("18"), OSVersion("18.0"), OSVersion("18.0.0.0")]).count == 1)
    }

    @Test(
        "text that is not a dotted version is rejected",
        arguments: ["", "abc", "1..2", "-1", "18.x", "1.2.3.4.5", ".1", "1.", " ", "1234567", "1 .2", "١٨.٠", "+1"])
    func rejects(text: String) {
        #expect(OSVersion(text) == nil)
    }
}
