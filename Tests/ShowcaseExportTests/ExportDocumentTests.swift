import Foundation
import ShowcaseCore
import ShowcaseExport
import Testing

@Suite("Export documents")
struct ExportDocumentTests {
    @Test("writes exactly the document fields, in a fixed order, each app as Roster.Get answers it plus taglines")
    func exactText() {
        let document = ExportDocument(
            host: Samples.host, storefront: Samples.de, platform: .ios, revision: 7, revisedAt: Samples.revisedAt,
            apps: [
                Samples.exported(
                    Samples.windrose, tagline: .localized(default: "Wind roses", byLocale: ["de": "Windrosen"]),
                    locale: "de-DE")
            ])
        let expected = """
            {
              "schema": 1,
              "host": "com.quietharbor.TideLog",
              "storefront": "de",
              "platform": "ios",
              "revision": 7,
              "revisedAt": "2026-11-18T11:06:40Z",
              "locale": "de-DE",
              "labels": {
                "app_link": "{name}, {store}"
              },
              "apps": [
                {
                  "id": 1641000105,
                  "artistId": 1641000001,
                  "name": "Windrose",
                  "bundleId": "com.quietharbor.Windrose",
                  "genre": "Weather",
                  "formattedPrice": "$2.99",
                  "price": 2.99,
                  "currency": "USD",
                  "platform": "ios",
                  "devices": [
                    "iphone",
                    "ipad"
                  ],
                  "minimumOsVersion": "17.0",
                  "iconUrl": "https://is1-ssl.mzstatic.com/1641000105/512x512bb.jpg",
                  "storeUrl": "https://apps.apple.com/us/app/id1641000105?uo=4",
                  "tagline": "Windrosen",
                  "taglines": {
                    "de": "Windrosen",
                    "default": "Wind roses"
                  }
                }
              ]
            }

            """
        #expect(String(decoding: document.encoded(), as: UTF8.self) == expected)
    }

    @Test("writes several apps, one without optional fields, in the same fixed text")
    func exactTextOfSeveral() {
        let bare = Samples.app(1_641_000_110, "Ropework", price: nil, formattedPrice: nil, currency: nil)
        let document = ExportDocument(
            host: Samples.host, storefront: Samples.us, platform: .ios, language: "en", revision: 2,
            revisedAt: Samples.revisedAt,
            apps: [Samples.exported(bare), Samples.exported(Samples.lanternlight, tagline: .plain("Tide \"light\""))])
        let expected = """
            {
              "schema": 1,
              "host": "com.quietharbor.TideLog",
              "storefront": "us",
              "platform": "ios",
              "language": "en",
              "revision": 2,
              "revisedAt": "2026-11-18T11:06:40Z",
              "locale": "en-US",
              "labels": {
                "app_link": "{name}, {store}"
              },
              "apps": [
                {
                  "id": 1641000110,
                  "artistId": 1641000001,
                  "name": "Ropework",
                  "bundleId": "com.quietharbor.Ropework",
                  "genre": "Weather",
                  "platform": "ios",
                  "devices": [
                    "iphone",
                    "ipad"
                  ],
                  "minimumOsVersion": "16.0",
                  "iconUrl": "https://is1-ssl.mzstatic.com/1641000110/512x512bb.jpg",
                  "storeUrl": "https://apps.apple.com/us/app/id1641000110?uo=4",
                  "taglines": {}
                },
                {
                  "id": 1641000103,
                  "artistId": 1641000001,
                  "name": "Lanternlight",
                  "bundleId": "com.quietharbor.Lanternlight",
                  "genre": "Weather",
                  "formattedPrice": "Free",
                  "price": 0.0,
                  "currency": "USD",
                  "platform": "ios",
                  "devices": [
                    "iphone",
                    "ipad"
                  ],
                  "minimumOsVersion": "9.0",
                  "iconUrl": "https://is1-ssl.mzstatic.com/1641000103/512x512bb.jpg",
                  "storeUrl": "https://apps.apple.com/us/app/id1641000103?uo=4",
                  "tagline": "Tide \\"light\\"",
                  "taglines": {
                    "default": "Tide \\"light\\""
                  }
                }
              ]
            }

            """
        #expect(String(decoding: document.encoded(), as: UTF8.self) == expected)
        let empty = ExportDocument(
            host: Samples.host, storefront: Samples.us, platform: .macos, revision: 1, revisedAt: Samples.revisedAt,
            apps: [])
        #expect(String(decoding: empty.encoded(), as: UTF8.self).hasSuffix("\"apps\": []\n}\n"))
    }

    @Test("omits what an app or roster does not have, as Roster.Get does, but always lists taglines")
    func optionalFields() throws {
        let bare = Samples.app(1_641_000_110, "Ropework", price: nil, formattedPrice: nil, currency: nil)
        let document = ExportDocument(
            host: Samples.host, storefront: Samples.us, platform: .ios, revision: 1, revisedAt: Samples.revisedAt,
            apps: [Samples.exported(bare)])
        let json = try parsed(document.encoded())
        #expect(json["language"] == nil)
        let app = try #require((json["apps"] as? [[String: Any]])?.first)
        #expect(
            Set(app.keys) == [
                "id", "artistId", "name", "bundleId", "genre", "platform", "devices", "minimumOsVersion", "iconUrl",
                "storeUrl", "taglines",
            ])
        #expect((app["taglines"] as? [String: String])?.isEmpty == true)
    }

    @Test("names the roster's language when it has one")
    func language() throws {
        let document = ExportDocument(
            host: Samples.host, storefront: try Storefront(parsing: "ca"), platform: .macos, language: "fr",
            revision: 2, revisedAt: Samples.revisedAt, apps: [])
        let json = try parsed(document.encoded())
        #expect(json["language"] as? String == "fr")
        #expect(json["storefront"] as? String == "ca")
        #expect(json["platform"] as? String == "macos")
    }

    @Test("lists a plain tagline as every locale's default and a localized one locale by locale")
    func taglinesMap() {
        let resolved = ResolvedApp(app: Samples.lanternlight, storeUrl: "https://x", tagline: nil)
        #expect(ExportedApp(resolved, tagline: .plain("Tide light")).taglines == ["default": "Tide light"])
        let localized = ExportedApp(
            resolved, tagline: .localized(default: nil, byLocale: ["de": "Gezeitenlicht", "pt-BR": "Luz da maré"]))
        #expect(localized.taglines == ["de": "Gezeitenlicht", "pt-BR": "Luz da maré"])
        #expect(ExportedApp(resolved, tagline: nil).taglines.isEmpty)
    }

    @Test("is a valid document with an empty apps list")
    func emptyApps() throws {
        let document = ExportDocument(
            host: Samples.host, storefront: Samples.jp, platform: .macos, revision: 3, revisedAt: Samples.revisedAt,
            apps: [])
        let json = try parsed(document.encoded())
        #expect((json["apps"] as? [Any])?.isEmpty == true)
        #expect(json["revision"] as? Int == 3)
        #expect(json["schema"] as? Int == 1)
    }

    @Test("gives identical bytes for identical content, whatever order the taglines map was built in")
    func stableBytes() {
        func document(_ byLocale: KeyValuePairs<String, String>) -> Data {
            var taglines: [String: String] = [:]
            for (key, value) in byLocale { taglines[key] = value }
            let app = ExportedApp(
                ResolvedApp(app: Samples.windrose, storeUrl: Samples.windrose.storeUrl, tagline: nil),
                taglines: taglines)
            return ExportDocument(
                host: Samples.host, storefront: Samples.us, platform: .ios, revision: 1,
                revisedAt: Samples.revisedAt, apps: [app]
            ).encoded()
        }
        let forward = document(["de": "a", "ja": "b", "fr": "c", "default": "d", "pt-BR": "e"])
        let backward = document(["pt-BR": "e", "default": "d", "fr": "c", "ja": "b", "de": "a"])
        #expect(forward == backward)
        #expect(forward != document(["de": "a", "ja": "b", "fr": "c", "default": "D", "pt-BR": "e"]))
    }

    @Test("keeps the apps in the order given (the overlay's), not sorted")
    func appOrder() throws {
        let document = ExportDocument(
            host: Samples.host, storefront: Samples.us, platform: .ios, revision: 1, revisedAt: Samples.revisedAt,
            apps: [Samples.exported(Samples.windrose), Samples.exported(Samples.lanternlight)])
        let apps = try #require(try parsed(document.encoded())["apps"] as? [[String: Any]])
        #expect(apps.map { $0["id"] as? Int } == [1_641_000_105, 1_641_000_103])
    }

    @Test("escapes quotes, backslashes and control characters and keeps every other character")
    func escaping() throws {
        var app = Samples.lanternlight
        app.name = "Say \"hi\"\\ \n\t\u{1} ¥480 潮 🌊"
        let document = ExportDocument(
            host: Samples.host, storefront: Samples.jp, platform: .ios, revision: 1, revisedAt: Samples.revisedAt,
            apps: [Samples.exported(app)])
        let text = String(decoding: document.encoded(), as: UTF8.self)
        #expect(text.contains(#""name": "Say \"hi\"\\ \n\t\u0001 ¥480 潮 🌊""#))
        let apps = try #require(try parsed(document.encoded())["apps"] as? [[String: Any]])
        #expect(apps.first?["name"] as? String == app.name)
    }
}

@Suite("Export index")
struct ExportIndexTests {
    @Test("lists every document sorted by path with its state, revision and fetch time, and each diagnostic")
    func listing() throws {
        let index = ExportIndex(
            documents: [
                ExportIndexEntry(
                    path: "h/us/macos.json", host: "h", storefront: Samples.us, platform: .macos, language: nil,
                    state: .stale, revision: 4, fetchedAt: Samples.fetchedAt, error: nil),
                ExportIndexEntry(
                    path: "h/de/ios.json", host: "h", storefront: Samples.de, platform: .ios, language: nil,
                    state: .failed, revision: nil, fetchedAt: nil, error: "MalformedResponse: not JSON"),
            ],
            diagnostics: [
                ExportDiagnostic(
                    host: "h", storefront: Samples.jp, language: nil, state: .failed, error: "HostAppNotFound"),
                ExportDiagnostic(
                    host: "h", storefront: Samples.de, language: nil, state: .failed,
                    error: "MalformedResponse: not JSON"),
            ])
        let json = try parsed(index.encoded())
        #expect(json["schema"] as? Int == 1)
        let documents = try #require(json["documents"] as? [[String: Any]])
        #expect(documents.map { $0["path"] as? String } == ["h/de/ios.json", "h/us/macos.json"])
        #expect(documents[0]["error"] as? String == "MalformedResponse: not JSON")
        #expect(documents[0]["revision"] is NSNull)
        #expect(documents[0]["fetchedAt"] is NSNull)
        #expect(documents[1]["error"] == nil)
        #expect(documents[1]["state"] as? String == "stale")
        #expect(documents[1]["revision"] as? Int == 4)
        #expect(documents[1]["fetchedAt"] as? String == "2026-11-18T12:06:40Z")
        #expect(documents[1]["language"] is NSNull)
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["storefront"] as? String } == ["de", "jp"])
        #expect(
            index.encoded()
                == ExportIndex(documents: index.documents.reversed(), diagnostics: index.diagnostics)
                .encoded())
    }
}
