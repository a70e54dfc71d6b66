import Foundation
import ShowcaseCore
import ShowcaseDaemon
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks that the live lookup endpoint still answers in the shape `Fixtures/` assumes. Never runs unless
/// `SHOWCASE_LIVE_BUNDLE_ID` names a real app (four requests, well inside Apple's rate limit).
/// `SHOWCASE_LIVE_STOREFRONT` picks the non-US storefront (default `jp`).
@Suite(
    "Live lookup endpoint shape",
    .enabled(if: ProcessInfo.processInfo.environment["SHOWCASE_LIVE_BUNDLE_ID"] != nil),
    .serialized)
struct LiveLookupTests {
    let bundleId = ProcessInfo.processInfo.environment["SHOWCASE_LIVE_BUNDLE_ID"] ?? ""
    let endpoint = URL(string: "https://itunes.apple.com/lookup")!
    var transport: CurlTransport {
        CurlTransport(endpoint: endpoint, timeout: .seconds(20), version: "live-test")
    }
    var other: Storefront {
        (try? Storefront(parsing: ProcessInfo.processInfo.environment["SHOWCASE_LIVE_STOREFRONT"] ?? "jp"))
            ?? Storefront.unitedStates
    }

    @Test("the live identity, roster, entity-less answer and a non-US roster have the fixtures' shape")
    func liveShape() async throws {
        // Identity: one software row with the bundle id, its developer and its own id.
        let identityBody = try await transport.fetch(.identity(bundleId: bundleId, storefront: .unitedStates))
        let identity = try HostIdentity.decode(
            bundleId: bundleId, storefront: .unitedStates, body: identityBody, resolvedAt: Date())
        let identityRow = try #require(Self.rows(identityBody).first)
        #expect(identityRow.count >= 40, "a software row carries ~44 keys; got \(identityRow.keys.sorted())")
        for key in ["trackId", "artistId", "bundleId", "kind", "minimumOsVersion", "trackViewUrl", "formattedPrice"] {
            #expect(identityRow[key] != nil, "identity row lost \(key)")
        }
        #expect(identityRow["fileSizeBytes"] is String)

        // Roster with entity=software: artist row first, then software rows including the host.
        let rosterBody = try await transport.fetch(.roster(artistId: identity.artistId, storefront: .unitedStates))
        let rows = try Self.rows(rosterBody)
        #expect(rows.first?["wrapperType"] as? String == "artist")
        #expect(rows.dropFirst().allSatisfy { $0["wrapperType"] as? String == "software" })
        let roster = try Roster(
            artistId: identity.artistId, storefront: .unitedStates, body: rosterBody, fetchedAt: Date())
        #expect(roster.app(id: identity.trackId) != nil)
        // Every software row maps to at least one known device family: an iOS row through a model of its own
        // supportedDevices, a Mac row through its kind. So a new Apple device prefix is noticed here, and so is a
        // renamed or emptied supportedDevices, which would otherwise make every iOS app an iPhone and iPad app.
        for row in rows.dropFirst() {
            let kind = row["kind"] as? String
            #expect(kind == "software" || kind == "mac-software", "unknown kind in \(row["trackId"] ?? "?"): \(row)")
            guard kind == "software" else { continue }
            let models = row["supportedDevices"] as? [String] ?? []
            #expect(
                models.contains { DeviceFamily(model: $0) != nil },
                "no known device family in \(row["trackId"] ?? "?"): \(models)")
        }
        #expect(roster.unknownDeviceModels.isEmpty, "unknown device models: \(roster.unknownDeviceModels.sorted())")
        #expect(roster.apps.allSatisfy { !$0.devices.isEmpty })

        // Entity-less: resultCount 1, the artist row only — the missing-entity signature.
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "id", value: String(identity.artistId)), URLQueryItem(name: "country", value: "us"),
        ]
        let (entityless, _) = try await URLSession.shared.data(from: components.url!)
        #expect(throws: LookupError.missingEntityParameter(storefront: .unitedStates, resultCount: 1)) {
            try Roster(artistId: identity.artistId, storefront: .unitedStates, body: entityless, fetchedAt: Date())
        }

        // A non-US storefront: the same developer, with that storefront's currency and store URLs.
        let localizedBody = try await transport.fetch(.roster(artistId: identity.artistId, storefront: other))
        let localized = try Roster(
            artistId: identity.artistId, storefront: other, body: localizedBody, fetchedAt: Date())
        if let app = localized.apps.first {
            #expect(app.storeUrl.contains("/\(other.code)/app/"))
            #expect(app.currency != "USD" || ["us", "ec", "sv", "pa"].contains(other.code))
        }
    }

    static func rows(_ body: Data) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        return try #require(object["results"] as? [[String: Any]])
    }
}
