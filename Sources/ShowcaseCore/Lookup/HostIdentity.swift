import FoundationEssentials

/// Who a configured host app is: its developer (`artistId`) and its own `trackId`.
///
/// Resolved once (one `lookup?bundleId=` request) and cached, so that every host of one developer shares one
/// roster request per storefront instead of each host rediscovering its developer on every refresh.
public struct HostIdentity: Sendable, Hashable, Codable {
    /// The configured bundle id, as written in the config.
    public var bundleId: String
    /// The developer whose roster the host shows.
    public var artistId: Int
    /// The host's own app id, excluded from its own roster.
    public var trackId: Int
    /// The storefront the identity was resolved in (identity does not vary by storefront).
    public var storefront: Storefront
    /// When it was resolved.
    public var resolvedAt: Date

    /// Creates an identity from parts (tests, a config that pins `app_id`).
    public init(bundleId: String, artistId: Int, trackId: Int, storefront: Storefront, resolvedAt: Date) {
        self.bundleId = bundleId
        self.artistId = artistId
        self.trackId = trackId
        self.storefront = storefront
        self.resolvedAt = resolvedAt
    }

    /// Decodes an identity response for `bundleId`.
    ///
    /// - Throws: ``LookupError/hostAppNotFound(bundleId:storefront:)`` when no software row has that bundle id
    ///   (a typo in `hosts[].bundle_id`, or an app not sold there); ``LookupError/malformed(detail:)`` when the
    ///   body is not a lookup response or the row lacks `artistId`/`trackId`.
    public static func decode(
        bundleId: String, storefront: Storefront, body: Data, resolvedAt: Date
    ) throws(LookupError) -> HostIdentity {
        let response = try LookupResponse.decode(body)
        guard
            let row = response.softwareRows.first(where: {
                $0.bundleId?.equalsIgnoringCase(bundleId) == true
            })
        else { throw .hostAppNotFound(bundleId: bundleId, storefront: storefront) }
        guard let artistId = row.artistId, let trackId = row.trackId else {
            throw .malformed(detail: "identity row for \(bundleId) has no artistId or trackId")
        }
        return HostIdentity(
            bundleId: bundleId, artistId: artistId, trackId: trackId, storefront: storefront, resolvedAt: resolvedAt)
    }

    // Storefront is stored as its alpha-2 code.
    private enum CodingKeys: String, CodingKey { case bundleId, artistId, trackId, storefront, resolvedAt }

    /// Decodes the cached form; an unknown storefront code fails decoding (the cache then reads as a miss).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        bundleId = try c.decode(String.self, forKey: .bundleId)
        artistId = try c.decode(Int.self, forKey: .artistId)
        trackId = try c.decode(Int.self, forKey: .trackId)
        let code = try c.decode(String.self, forKey: .storefront)
        do { storefront = try Storefront(parsing: code) } catch {
            throw DecodingError.dataCorruptedError(forKey: .storefront, in: c, debugDescription: error.description)
        }
        resolvedAt = Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .resolvedAt))
    }

    /// Encodes the cached form.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bundleId, forKey: .bundleId)
        try c.encode(artistId, forKey: .artistId)
        try c.encode(trackId, forKey: .trackId)
        try c.encode(storefront.code, forKey: .storefront)
        try c.encode(resolvedAt.timeIntervalSince1970, forKey: .resolvedAt)
    }
}
