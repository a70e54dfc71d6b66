import Foundation

/// A stand-in `io.showcase.Roster.Get` reply of a given number of apps, in the daemon's field layout.
///
/// Only for proving the instrument before the daemon exists (floor against floor): the real bench serves
/// the bytes captured from the running daemon, so the floor's reply is then the daemon's, byte for byte.
enum RosterReplyGenerator {
    static func reply(apps count: Int, storefront: String = "us") -> String {
        let apps = (0..<count).map { index -> String in
            let id = 1_650_000_101 + index
            let name = "Bench App \(index) – Tide Tables & Charts"
            return JSONText.object([
                ("artistId", "1650000001"),
                ("bundleId", JSONText.string("com.benchharbor.App\(index)")),
                ("formattedPrice", JSONText.string(index % 3 == 0 ? "$2.99" : "Free")),
                ("genre", JSONText.string("Weather")),
                (
                    "iconUrl",
                    JSONText.string(
                        "https://is1-ssl.mzstatic.com/image/thumb/Purple211/v4/a5/e5/01/"
                            + "a5e50188-dcf5-96a5-5a67-19e5317fa37a/AppIcon-0-0-1x_U007emarketing-0-8-0-85-220.png/"
                            + "512x512bb.jpg")
                ),
                ("id", String(id)),
                ("minimumOsVersion", JSONText.string("16.0")),
                ("name", JSONText.string(name)),
                ("platform", JSONText.string("ios")),
                (
                    "storeUrl",
                    JSONText.string(
                        "https://apps.apple.com/\(storefront)/app/bench-app-\(index)/id\(id)?uo=4&pt=1234567"
                            + "&ct=showcase-host&mt=8")
                ),
                ("tagline", index % 2 == 0 ? JSONText.string("Notes in a jar, number \(index)") : "null"),
            ])
        }
        let parameters = JSONText.object([
            ("apps", "[" + apps.joined(separator: ",") + "]"),
            ("fetchedAt", JSONText.string("2026-11-29T12:00:00Z")),
            ("host", JSONText.string("com.benchharbor.App0")),
            ("state", JSONText.string("fresh")),
            ("storefront", JSONText.string(storefront)),
        ])
        return JSONText.object([("parameters", parameters)])
    }
}
