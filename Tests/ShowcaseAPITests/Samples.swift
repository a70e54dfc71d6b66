import Foundation
import ShowcaseAPI

/// Values with every optional field set, and with none, for the round-trip tests (invented apps), and the
/// replies captured from showcased in `Fixtures/replies/`.
enum Samples {
    static let fullApp = RosterApp(
        id: 1_641_000_103, artistId: 1_641_000_100, name: "Lanternlight", bundleId: "io.example.Lanternlight",
        genre: "Dienstprogramme", formattedPrice: "2,99 €", price: 2.99, currency: "EUR", platform: "ios",
        devices: ["iphone", "ipad", "mac"], minimumOsVersion: "16.0",
        iconUrl: "https://example.invalid/1641000103.png",
        storeUrl: "https://apps.example.invalid/de/app/id1641000103?uo=4&pt=1234567&ct=showcase-notejar&mt=8",
        tagline: "Licht für die lange Wache")

    static let bareApp = RosterApp(
        id: 1_641_000_105, artistId: 1_641_000_100, name: "Windrose", bundleId: "io.example.Windrose",
        genre: "Wetter", formattedPrice: nil, price: nil, currency: nil, platform: "macos", devices: ["mac"],
        minimumOsVersion: "12.0",
        iconUrl: "https://example.invalid/1641000105.png",
        storeUrl: "https://apps.example.invalid/de/app/id1641000105?uo=4", tagline: nil)

    /// A reply showcased wrote, from `Fixtures/replies/` (read relative to this file), without the final newline.
    static func capturedReply(_ name: String) -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/replies").appendingPathComponent(name)
        let text = try! String(contentsOf: url, encoding: .utf8)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
