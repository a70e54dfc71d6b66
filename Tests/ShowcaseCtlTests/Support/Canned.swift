import Foundation
import Varlink

/// Replies shaped like the daemon's (docs/protocol.md), for the fake daemon. Invented apps, as the fixtures are.
enum Canned {
    /// An RFC 3339 timestamp `seconds` before (negative: after) now.
    static func timestamp(secondsAgo seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date().addingTimeInterval(-seconds))
    }

    static func app(
        _ id: Int64, _ name: String, price: String?, genre: String, platform: String = "ios", floor: String = "16.0",
        tagline: String?
    ) -> JSONValue {
        [
            "id": .int(id), "artistId": 555_000_111, "name": .string(name), "bundleId": .string("com.example.\(id)"),
            "genre": .string(genre), "formattedPrice": price.map(JSONValue.string) ?? .null,
            "platform": .string(platform), "minimumOsVersion": .string(floor),
            "iconUrl": .string("https://example.invalid/\(id).png"),
            "storeUrl": .string("https://apps.example.invalid/app/id\(id)?uo=4"),
            "tagline": tagline.map(JSONValue.string) ?? .null,
        ]
    }

    static let apps: [JSONValue] = [
        app(1_234_567_890, "NoteJar", price: "Gratis", genre: "Productivity", tagline: "Notizen im Glas"),
        app(2_222_222_222, "Brew Ratio", price: "2,99 €", genre: "Food & Drink", floor: "17.0", tagline: nil),
        app(
            3_333_333_333, "メモ瓶", price: "Gratis", genre: "Utilities", platform: "ios", floor: "9.0", tagline: "瓶の中のメモ"),
    ]

    static func roster(state: String = "fresh", secondsAgo: Double? = 3 * 3600 + 120, apps: [JSONValue] = apps)
        -> JSONValue
    {
        [
            "storefront": "de", "host": "com.example.NoteJar", "state": .string(state),
            "fetchedAt": secondsAgo.map { .string(timestamp(secondsAgo: $0)) } ?? .null, "apps": .array(apps),
        ]
    }

    static func watchReply(revision: Int64) -> JSONValue {
        ["storefront": "de", "revision": .int(revision), "state": "fresh", "apps": .array(Array(apps.prefix(2)))]
    }

    static let storefronts: JSONValue = [
        "storefronts": [
            ["code": "de", "alpha3": "DEU", "name": "Germany", "warm": true],
            ["code": "jp", "alpha3": "JPN", "name": "Japan", "warm": false],
            ["code": "us", "alpha3": "USA", "name": "United States", "warm": true],
        ]
    ]

    /// A Status reply; `upstream` and `storefronts`, when given, replace the sample counters and rows.
    static func status(
        lastReloadError: String? = nil, export: JSONValue = .null, upstream: JSONValue? = nil,
        storefronts: JSONValue? = nil
    ) -> JSONValue {
        [
            "export": export,
            "version": "0.1.0", "configPath": "/etc/showcase/showcase.yaml", "configGeneration": 3,
            "lastReloadError": lastReloadError.map(JSONValue.string) ?? .null,
            "upstream": upstream ?? ["requests": 42, "failures": 2, "throttled": 1],
            "storefronts": storefronts ?? [
                [
                    "code": "de", "state": "fresh", "fetchedAt": .string(timestamp(secondsAgo: 3 * 3600 + 60)),
                    "nextRefreshAt": .string(timestamp(secondsAgo: -21 * 3600 - 600)), "apps": 3, "lastError": .null,
                    "droppedRows": 2, "truncated": true,
                ],
                [
                    "code": "jp", "state": "warming", "fetchedAt": .null, "nextRefreshAt": .null, "apps": 0,
                    "lastError": "lookup timed out after 10s", "droppedRows": 0, "truncated": false,
                ],
            ],
            "hosts": [
                ["bundleId": "com.example.NoteJar", "appId": 1_234_567_890, "artistId": 1_111_111_111],
                [
                    "bundleId": "com.example.Brew", "artistId": 2_222_222_222,
                    "warning": "com.example.Brew moved from developer 1 to developer 2222222222",
                ],
            ],
        ]
    }
}
