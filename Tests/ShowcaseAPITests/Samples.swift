import Foundation
import ShowcaseAPI
import ShowcaseCore

/// Values with every optional field set, and with none, for the round-trip tests (invented apps), and the
/// replies captured from showcased in `Fixtures/replies/`.
enum Samples {
    static let fullApp = RosterApp(
        id: 1_641_000_103, artistId: 1_641_000_100, name: "Lanternlight", bundleId: "io.example.Lanternlight",
        genre: "Dienstprogramme", formattedPrice: "2,99 €", price: 2.99, currency: "EUR", platform: "ios",
        devices: ["iphone", "ipad", "mac"], minimumOsVersion: "16.0",
        iconUrl: "https://example.invalid/1641000103.png",
        storeUrl: "https://apps.example.invalid/de/app/id1641000103?uo=4&pt=1234567&ct=showcase-notejar&mt=8",
        tagline: "Licht für die lange Wache", genreId: 6002, otherFields: ["contentAdvisoryRating": "4+"])

    static let bareApp = RosterApp(
        id: 1_641_000_105, artistId: 1_641_000_100, name: "Windrose", bundleId: "io.example.Windrose",
        genre: "Wetter", formattedPrice: nil, price: nil, currency: nil, platform: "macos", devices: ["mac"],
        minimumOsVersion: "12.0",
        iconUrl: "https://example.invalid/1641000105.png",
        storeUrl: "https://apps.example.invalid/de/app/id1641000105?uo=4", tagline: nil)

    /// A query with every optional field set.
    static let fullGetRequest = RosterGetRequest(
        storefront: .de, host: "io.example.NoteJar", platform: .macos, device: .ipad, osVersion: OSVersion("14.2")!,
        locale: "de-AT", waitMs: 2500)

    /// Two changes that, between them, set every optional field of a `Change`.
    static let changes = [
        RosterChange(
            serial: 7, at: "2026-12-01T08:00:00Z", kind: RosterChange.Kind.updated, id: 1, name: "Jar",
            platform: "ios", storeUrl: "https://apps.apple.com/de/app/id1", iconUrl: "https://x/1.jpg",
            version: "2.0", versionDate: "2026-11-30T08:00:00Z", releaseNotes: "Notes\nmore"),
        RosterChange(
            serial: 6, at: "2026-11-30T08:00:00Z", kind: RosterChange.Kind.price, id: 2, name: "Pot",
            platform: "macos", storeUrl: "https://apps.apple.com/de/app/id2", iconUrl: "https://x/2.jpg",
            formattedPrice: "0,99 €", previousFormattedPrice: "1,99 €"),
    ]

    /// A status with every optional field set: a reload error, an exporting daemon, a host with a warning.
    static let fullStatus = AdminStatusReply(
        version: "0.4.0", configPath: "/etc/showcase/showcase.yaml", configGeneration: 3,
        lastReloadError: "overlay.yaml:2:1: unknown key 'oder'",
        upstream: .init(requests: 42, failures: 2, throttled: 1),
        storefronts: [
            .init(
                code: "ca", state: .stale, fetchedAt: "2026-11-29T14:18:43Z", nextRefreshAt: "2026-11-30T13:02:11Z",
                apps: 30, lastError: "HTTP 503", language: "fr", droppedRows: 2, truncated: true)
        ],
        hosts: [
            .init(bundleId: "io.example.NoteJar", appId: 1, artistId: 2, warning: "moved to another developer")
        ],
        export: .init(directory: "/srv/export", exportedAt: "2026-11-29T14:18:44Z", errors: 1, lastError: "ENOSPC"),
        problems: [
            .init(kind: ServiceProblem.history, host: "io.example.NoteJar", storefront: "ca", detail: "set aside")
        ])

    /// Every error of both interfaces, once.
    static let errors: [ShowcaseErrorReply] = [
        .unknownStorefront(storefront: "zz"), .unknownHost(host: "io.example.Nope"),
        .appNotFound(id: 42, storefront: "de"), .hostAppNotFound(host: "io.example.NoteJar", storefront: "de"),
        .malformedResponse(storefront: "de", detail: "results is not an array"),
        .missingEntityParameter(storefront: "de"), .unavailable(storefront: "de", reason: "connection refused"),
        .configInvalid(file: "/etc/showcase/overlay.yaml", line: 7, column: 3, message: "expected an app id"),
        .exportNotConfigured,
    ]

    /// A reply showcased wrote, from `Fixtures/replies/` (read relative to this file), without the final newline.
    static func capturedReply(_ name: String) -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/replies").appendingPathComponent(name)
        let text = try! String(contentsOf: url, encoding: .utf8)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
