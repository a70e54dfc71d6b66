import Foundation
import Testing

@Suite("Queries", .serialized)
struct QueryTests {
    @Test("more distinct hot queries than the reply cache holds all keep getting their own correct answer")
    func replyCacheOverBudget() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let expected = try bed.get("us").appIDs
        let tagged = try #require(expected.first)
        // Each locale is its own cache key and gets its own tagline for the first app, so every key's reply differs:
        // an answer cached for another key shows another tagline. 2,500 of them asked three times overflow the reply
        // cache's budget.
        let locales = (1...2500).map { "en-t\($0)" }
        let entries = locales.enumerated().map { "    \($1): \"Tagline \($0)\"" }.joined(separator: "\n")
        try bed.writeOverlay("taglines:\n  \(tagged):\n    default: \"Default\"\n\(entries)\n")
        #expect(try bed.reload().error == nil)
        let client = try bed.client()
        for _ in 0..<3 {
            for locale in locales { try client.send("io.showcase.Roster.Get", ["storefront": "us", "locale": locale]) }
            for (index, locale) in locales.enumerated() {
                let answer = try client.next()
                #expect(answer.error == nil, "\(locale): \(answer)")
                #expect(answer.appIDs == expected, "\(locale)")
                let tagline = answer.apps.first { ($0["id"] as? NSNumber)?.intValue == tagged }?["tagline"] as? String
                #expect(tagline == "Tagline \(index)", "\(locale) got another key's answer")
            }
        }
        #expect(bed.daemon!.process.isRunning)
    }

    @Test("Get names its first invalid parameter in the interface's order, reads null as absent, ignores extras")
    func parameterValidation() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let expected = try bed.get("us")
        #expect(!expected.appIDs.isEmpty)

        let cases: [([String: Any], String)] = [
            (["waitMs": -1, "locale": 3, "host": 7], "host"),
            (["waitMs": "soon", "osVersion": 18], "osVersion"),
            (["waitMs": -5], "waitMs"),
            (["platform": true], "platform"),
        ]
        for (parameters, named) in cases {
            let answer = try bed.get("us", parameters)
            #expect(answer.error == "org.varlink.service.InvalidParameter", "\(parameters)")
            #expect(answer.string("parameter") == named, "\(parameters): \(answer)")
        }
        let missing = try bed.client().call("io.showcase.Roster.Get", ["host": TestBed.knotbook])
        #expect(missing.string("parameter") == "storefront")

        let relaxed = try bed.get("us", ["host": NSNull(), "locale": NSNull(), "waitMs": NSNull(), "extra": [1]])
        #expect(relaxed.error == nil, "\(relaxed)")
        #expect(relaxed.appIDs == expected.appIDs)
    }

    @Test("Get applies host self-exclusion, platform and OS floor per query, from one cached roster")
    func perQueryFiltering() throws {
        let bed = try TestBed()
        bed.hosts = [TestBed.knotbook, TestBed.tideLog]
        try bed.start()
        try bed.waitUntilWarm()
        let requestsBefore = bed.requests().count
        let knotbook = try bed.get("us")
        let tideLog = try bed.get("us", ["host": TestBed.tideLog])
        #expect(!knotbook.apps.contains { $0["bundleId"] as? String == TestBed.knotbook })
        #expect(!tideLog.apps.contains { $0["bundleId"] as? String == TestBed.tideLog })
        #expect(knotbook.apps.contains { $0["bundleId"] as? String == TestBed.tideLog })
        #expect(knotbook.apps.allSatisfy { $0["platform"] as? String == "ios" })

        let mac = try bed.get("us", ["platform": "macos"])
        #expect(!mac.apps.isEmpty)
        #expect(mac.apps.allSatisfy { $0["platform"] as? String == "macos" })

        let old = try bed.get("us", ["osVersion": "15.0"])
        #expect(old.apps.count < knotbook.apps.count)
        for app in old.apps {
            let floor = (app["minimumOsVersion"] as? String ?? "").split(separator: ".").compactMap { Int($0) }
            #expect(floor.lexicographicallyPrecedes([15, 0, 1]), "\(app)")
        }
        #expect(bed.requests().count == requestsBefore)
    }

    @Test("GetApp answers one app, and AppNotFound with id and storefront for an unlisted one")
    func getApp() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let id = try #require(try bed.get("de").appIDs.first)
        let reply = try bed.client().call("io.showcase.Roster.GetApp", ["id": id, "storefront": "de"])
        let app = reply["app"] as? [String: Any]
        #expect((app?["id"] as? NSNumber)?.intValue == id)
        #expect((app?["storeUrl"] as? String)?.contains("/de/") == true)
        let missing = try bed.client().call("io.showcase.Roster.GetApp", ["id": 1, "storefront": "de"])
        #expect(missing.error == "io.showcase.Roster.AppNotFound")
        #expect(missing.int("id") == 1)
        #expect(missing.string("storefront") == "de")
    }

    @Test("GetApp answers AppNotFound for the host app's own id, which the roster it asks about never lists")
    func getAppOfTheHost() throws {
        let bed = try TestBed()
        bed.hosts = [TestBed.knotbook, TestBed.tideLog]
        try bed.start()
        try bed.waitUntilWarm()
        let knotbook = 1_641_000_102
        #expect(try !bed.get("de").appIDs.contains(knotbook))
        let own = try bed.client().call("io.showcase.Roster.GetApp", ["id": knotbook, "storefront": "de"])
        #expect(own.error == "io.showcase.Roster.AppNotFound", "\(own)")
        let other = try bed.client().call(
            "io.showcase.Roster.GetApp", ["id": knotbook, "storefront": "de", "host": TestBed.tideLog])
        #expect(other.error == nil, "another host's roster lists it: \(other)")
    }
}
