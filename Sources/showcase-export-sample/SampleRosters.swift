import Foundation
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport

/// The export's input built from recorded lookup responses the way the daemon builds it from its rosters:
/// `RosterQuery.resolve` per platform (host removed, overlay order, exclusions, attribution, the storefront's
/// tagline), plus each app's taglines and device families.
struct SampleRosters {
    let fixtures: URL
    let configuration: Configuration
    /// Replaces every host's overlay when set.
    let overlay: Overlay?
    let storefronts: [Storefront]

    /// When the sample revision appeared and was fetched: fixed, so repeated runs give identical documents.
    static let revisedAt = Date(timeIntervalSince1970: 1_796_566_723)  // 2026-12-06T14:18:43Z

    func rosters() throws -> [ExportRoster] {
        var result: [ExportRoster] = []
        for host in configuration.hosts {
            let artistId = try self.artistId(of: host.bundleID)
            for storefront in storefronts {
                let (roster, devices) = try load(artistId: artistId, storefront: storefront)
                let overlay = self.overlay ?? host.overlay
                var apps: [Platform: [ExportedApp]] = [:]
                for platform in Platform.allCases {
                    let query = RosterQuery(
                        hostBundleId: host.bundleID, hostTrackId: host.appID, platform: platform, overlay: overlay,
                        attribution: configuration.attribution)
                    apps[platform] = query.resolve(roster).map { resolved in
                        ExportedApp(resolved, tagline: overlay.taglines[resolved.id], devices: devices[resolved.id])
                    }
                }
                result.append(
                    ExportRoster(
                        host: host.bundleID, storefront: storefront, state: .fresh, fetchedAt: Self.revisedAt,
                        content: .current(revision: 1, revisedAt: Self.revisedAt, apps: apps)))
            }
        }
        return result
    }

    /// The host's developer, from its recorded identity lookup.
    private func artistId(of bundleID: String) throws -> Int {
        let body = try Data(contentsOf: fixtures.appendingPathComponent("identity-\(bundleID)-us.json"))
        guard let artistId = try LookupResponse.decode(body).results.first?.artistId else {
            throw SampleError("identity-\(bundleID)-us.json names no artistId")
        }
        return artistId
    }

    /// The storefront's recorded roster (the us one for a storefront without a recording) and each app's device
    /// families.
    private func load(artistId: Int, storefront: Storefront) throws -> (Roster, [Int: [String]]) {
        var file = fixtures.appendingPathComponent("roster-\(artistId)-\(storefront.code).json")
        if !FileManager.default.fileExists(atPath: file.path) {
            file = fixtures.appendingPathComponent("roster-\(artistId)-us.json")
        }
        let body = try Data(contentsOf: file)
        let roster = try Roster(artistId: artistId, storefront: storefront, body: body, fetchedAt: Self.revisedAt)
        return (roster, try Self.devices(in: body))
    }

    /// Device families from each iOS row's `supportedDevices`, by the rule the daemon will apply (prefix `iPhone`
    /// or `iPod` → iphone, `iPad` → ipad, `Watch` → watch, `AppleTV` → tv, `Reality`/`Vision` → vision,
    /// `MacDesktop` → mac; none listed → iphone and ipad). Until `App` carries them, the sample reads them here.
    static func devices(in body: Data) throws -> [Int: [String]] {
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        var result: [Int: [String]] = [:]
        for row in object?["results"] as? [[String: Any]] ?? [] where row["kind"] as? String == "software" {
            guard let id = row["trackId"] as? Int else { continue }
            let supported = row["supportedDevices"] as? [String] ?? []
            let prefixes: [(String, String)] = [
                ("iPhone", "iphone"), ("iPod", "iphone"), ("iPad", "ipad"), ("Watch", "watch"), ("AppleTV", "tv"),
                ("Reality", "vision"), ("Vision", "vision"), ("MacDesktop", "mac"),
            ]
            var families: [String] = []
            for device in supported {
                if let family = prefixes.first(where: { device.hasPrefix($0.0) })?.1, !families.contains(family) {
                    families.append(family)
                }
            }
            result[id] = supported.isEmpty ? ["iphone", "ipad"] : families
        }
        return result
    }
}

/// A fixture that is not what the sample expects.
struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
