import Foundation
import ShowcaseCore
import ShowcaseExport
import ShowcaseHistory
import Testing

/// Two developers' rosters for the site's tests: Quiet Harbor Labs (two iOS apps, one Mac app) and Lumen Works (one
/// iOS app), in us, jp and ca (en, fr); a storefront can be given without apps.
enum SiteSamples {
    static let ca = try! Storefront(parsing: "ca")
    static let site = SiteDescription(url: "https://example.com/apps/")
    static let harbor = "com.quietharbor.TideLog"
    static let lumen = "com.lumenworks.Host"

    static func app(
        _ id: Int, _ name: String, artist: Int = 1_641_000_001, platform: Platform = .ios, version: String = "2.1"
    ) -> App {
        App(
            id: id, artistId: artist, name: name, bundleId: "com.example.\(id)", genre: "Weather",
            formattedPrice: "Free", platform: platform, minimumOsVersion: "16.0",
            iconUrl: "https://is1-ssl.mzstatic.com/\(id)/512x512bb.jpg",
            storeUrl: "https://apps.apple.com/us/app/id\(id)?uo=4", price: 0, currency: "USD", version: version)
    }

    static func exported(_ app: App, tagline: String? = nil) -> ExportedApp {
        Samples.exported(app, tagline: tagline.map { .plain($0) })
    }

    /// Quiet Harbor's apps, the first with `tagline`, its name `name`.
    static func harborApps(tagline: String = "Tides, lit", name: String = "Lanternlight") -> [Platform: [ExportedApp]] {
        [
            .ios: [exported(app(1_641_000_103, name), tagline: tagline), exported(app(1_641_000_105, "Windrose"))],
            .macos: [exported(app(1_641_000_202, "ChartTable", platform: .macos))],
        ]
    }

    static let lumenApps: [Platform: [ExportedApp]] = [
        .ios: [exported(app(1_700_000_001, "Glowworm", artist: 1_700_000_000), tagline: "Light for reading")]
    ]

    static func roster(
        _ host: String, _ storefront: Storefront, language: String? = nil, isDefault: Bool = true,
        apps: [Platform: [ExportedApp]], fingerprint: [Int]? = [1], changes: [HistoryEntry] = []
    ) -> ExportRoster {
        var roster = ExportRoster(
            host: host, storefront: storefront, language: language, isDefaultLanguage: isDefault, state: .fresh,
            fetchedAt: Samples.fetchedAt, content: .latest(apps: apps, now: Samples.revisedAt),
            artistName: host == harbor ? "Quiet Harbor Labs" : "Lumen Works", fingerprint: fingerprint)
        roster.changes = changes
        return roster
    }

    /// Both developers in us, jp (Lumen Works has nothing there) and ca in en and fr; `harborPrint` is Quiet Harbor's
    /// fingerprint, `tagline` its first app's tagline.
    static func rosters(harborPrint: [Int] = [1], tagline: String = "Tides, lit", name: String = "Lanternlight")
        -> [ExportRoster]
    {
        let harbor = harborApps(tagline: tagline, name: name)
        return [
            roster(Self.harbor, Samples.us, apps: harbor, fingerprint: harborPrint),
            roster(Self.harbor, Samples.jp, apps: harbor, fingerprint: harborPrint),
            roster(Self.harbor, ca, language: "en", apps: harbor, fingerprint: harborPrint),
            roster(Self.harbor, ca, language: "fr", isDefault: false, apps: harbor, fingerprint: harborPrint),
            roster(lumen, Samples.us, apps: lumenApps),
            roster(lumen, Samples.jp, apps: [:]),
            roster(lumen, ca, language: "en", apps: lumenApps),
            roster(lumen, ca, language: "fr", isDefault: false, apps: lumenApps),
        ]
    }

    static func writer(_ directory: TemporaryDirectory, site: SiteDescription = site, limit: Int = 50_000)
        -> ExportWriter
    {
        ExportWriter(directory: directory.path, gzip: true, site: SiteWriter(settings: site, sitemapLimit: limit))
    }

    /// A page's text.
    static func page(_ directory: TemporaryDirectory, _ relative: String) throws -> String {
        String(decoding: try directory.read("site/" + relative), as: UTF8.self)
    }

    /// Every `<link rel="alternate">` of a page: hreflang → href.
    static func alternates(_ page: String) -> [String: String] {
        var found: [String: String] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("<link rel=\"alternate\"") {
            let parts = line.split(separator: "\"")
            found[String(parts[3])] = String(parts[5])
        }
        return found
    }

    /// The inode and mtime of a file.
    static func stamp(_ directory: TemporaryDirectory, _ relative: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file(relative))
        return "\(attributes[.systemFileNumber] ?? 0) \(attributes[.modificationDate] ?? 0)"
    }
}
