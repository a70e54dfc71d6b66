import Foundation
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport

/// The export's input built from recorded lookup responses the way the daemon builds it from its rosters:
/// `RosterQuery.resolve` per platform with every device family (host removed, overlay order, exclusions,
/// attribution, the storefront's tagline), plus each app's taglines and device families. Rows are checked against the
/// configuration's `lookup.artwork_hosts`, as the daemon checks them.
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
                let roster = try load(artistId: artistId, storefront: storefront)
                let overlay = self.overlay ?? host.overlay
                var apps: [Platform: [ExportedApp]] = [:]
                for platform in Platform.allCases {
                    var query = RosterQuery(
                        hostBundleId: host.bundleID, hostTrackId: host.appID, platform: platform, overlay: overlay,
                        attribution: configuration.attribution)
                    query.everyDevice = true
                    apps[platform] = query.resolve(roster).map { resolved in
                        ExportedApp(resolved, tagline: overlay.taglines[resolved.id])
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

    /// The storefront's recorded roster (the us one for a storefront without a recording, its store URLs moved to
    /// that storefront, as the roster decoder refuses a roster that answers for another one).
    private func load(artistId: Int, storefront: Storefront) throws -> Roster {
        let file = fixtures.appendingPathComponent("roster-\(artistId)-\(storefront.code).json")
        let body: Data
        if FileManager.default.fileExists(atPath: file.path) {
            body = try Data(contentsOf: file)
        } else {
            let us = try String(
                contentsOf: fixtures.appendingPathComponent("roster-\(artistId)-us.json"), encoding: .utf8)
            body = Data(
                us.replacingOccurrences(of: "apps.apple.com/us/", with: "apps.apple.com/\(storefront.code)/").utf8)
        }
        return try Roster(
            artistId: artistId, storefront: storefront, body: body, fetchedAt: Self.revisedAt,
            urlRules: configuration.lookup.urlRules)
    }
}

/// A fixture that is not what the sample expects.
struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
