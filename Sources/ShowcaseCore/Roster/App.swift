import Foundation

/// An app as showcased serves it: the fields of the Varlink `App` type, taken from one lookup row.
///
/// Names, genre and `formattedPrice` are served exactly as the storefront gave them (already localized,
/// "¥480", "Kostenlos"); nothing is translated or reformatted. `storeUrl` here is Apple's URL untouched;
/// attribution is added at read time by ``RosterQuery``.
public struct App: Sendable, Hashable, Codable {
    /// `trackId`.
    public var id: Int
    /// `artistId` of the developer.
    public var artistId: Int
    /// `trackName` as localized by the storefront.
    public var name: String
    /// `bundleId`.
    public var bundleId: String
    /// `primaryGenreName` as localized by the storefront.
    public var genre: String
    /// `formattedPrice` as the storefront formats it; nil when upstream omits it.
    public var formattedPrice: String?
    /// The store, from `kind`.
    public var platform: Platform
    /// The device families it runs on, from `supportedDevices` (``DeviceFamilies/init(supportedDevices:platform:)``).
    public var devices: DeviceFamilies
    /// `minimumOsVersion` as sent (parsed once into ``minimumOS``).
    public var minimumOsVersion: String {
        didSet { minimumOS = Self.floor(minimumOsVersion) }
    }
    /// The largest artwork URL (`artworkUrl512`, else 100, else 60).
    public var iconUrl: String
    /// `trackViewUrl` as Apple sent it (with its `uo=4`).
    public var storeUrl: String
    /// `price` (a float on the wire); nil when absent.
    public var price: Double?
    /// `currency` (`USD`, `JPY`).
    public var currency: String?
    /// `version`.
    public var version: String?
    /// `averageUserRating` (a float on the wire).
    public var averageUserRating: Double?
    /// `userRatingCount`.
    public var userRatingCount: Int?

    /// The parsed floor, compared numerically by the resolver; parsed once, not per query. A floor that does
    /// not parse (only possible for an `App` built by hand or decoded from elsewhere) reads as 9999, so it is
    /// hidden whenever a floor filter applies rather than shown to devices it may not run on.
    public private(set) var minimumOS: OSVersion

    private static func floor(_ text: String) -> OSVersion { OSVersion(text) ?? OSVersion("9999")! }

    private enum CodingKeys: String, CodingKey {
        case id, artistId, name, bundleId, genre, formattedPrice, platform, devices, minimumOsVersion, iconUrl
        case storeUrl, price, currency, version, averageUserRating, userRatingCount
    }

    /// Decodes the JSON form (the Varlink `App` fields plus price, currency, version and ratings); `devices`, when
    /// absent, follows the platform's default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let platform = try c.decode(Platform.self, forKey: .platform)
        let devices = try c.decodeIfPresent([DeviceFamily].self, forKey: .devices)
        self.init(
            id: try c.decode(Int.self, forKey: .id), artistId: try c.decode(Int.self, forKey: .artistId),
            name: try c.decode(String.self, forKey: .name), bundleId: try c.decode(String.self, forKey: .bundleId),
            genre: try c.decode(String.self, forKey: .genre),
            formattedPrice: try c.decodeIfPresent(String.self, forKey: .formattedPrice),
            platform: platform,
            devices: devices.map(DeviceFamilies.init) ?? DeviceFamilies(supportedDevices: nil, platform: platform),
            minimumOsVersion: try c.decode(String.self, forKey: .minimumOsVersion),
            iconUrl: try c.decode(String.self, forKey: .iconUrl),
            storeUrl: try c.decode(String.self, forKey: .storeUrl),
            price: try c.decodeIfPresent(Double.self, forKey: .price),
            currency: try c.decodeIfPresent(String.self, forKey: .currency),
            version: try c.decodeIfPresent(String.self, forKey: .version),
            averageUserRating: try c.decodeIfPresent(Double.self, forKey: .averageUserRating),
            userRatingCount: try c.decodeIfPresent(Int.self, forKey: .userRatingCount))
    }

    /// Creates an app from parts (tests, fakes).
    public init(
        id: Int, artistId: Int, name: String, bundleId: String, genre: String, formattedPrice: String?,
        platform: Platform, devices: DeviceFamilies? = nil, minimumOsVersion: String, iconUrl: String,
        storeUrl: String, price: Double? = nil, currency: String? = nil, version: String? = nil,
        averageUserRating: Double? = nil, userRatingCount: Int? = nil
    ) {
        self.init(
            id: id, artistId: artistId, name: name, bundleId: bundleId, genre: genre, formattedPrice: formattedPrice,
            platform: platform, devices: devices ?? DeviceFamilies(supportedDevices: nil, platform: platform),
            minimumOsVersion: minimumOsVersion, minimumOS: Self.floor(minimumOsVersion),
            iconUrl: iconUrl, storeUrl: storeUrl, price: price, currency: currency, version: version,
            averageUserRating: averageUserRating, userRatingCount: userRatingCount)
    }

    /// Creates an app whose floor the caller has already parsed from `minimumOsVersion` (the cache decoder).
    init(
        id: Int, artistId: Int, name: String, bundleId: String, genre: String, formattedPrice: String?,
        platform: Platform, devices: DeviceFamilies, minimumOsVersion: String, minimumOS: OSVersion, iconUrl: String,
        storeUrl: String, price: Double?, currency: String?, version: String?, averageUserRating: Double?,
        userRatingCount: Int?
    ) {
        self.id = id
        self.artistId = artistId
        self.name = name
        self.bundleId = bundleId
        self.genre = genre
        self.formattedPrice = formattedPrice
        self.platform = platform
        self.devices = devices
        self.minimumOsVersion = minimumOsVersion
        self.minimumOS = minimumOS
        self.iconUrl = iconUrl
        self.storeUrl = storeUrl
        self.price = price
        self.currency = currency
        self.version = version
        self.averageUserRating = averageUserRating
        self.userRatingCount = userRatingCount
    }

    /// The app a row describes, or nil when the row is not one: the artist row, an unknown `kind`, or a row
    /// missing a field the reply needs (id, artist, name, bundle id, genre, a parseable floor, an icon, a store
    /// URL). Dropping such a row is deliberate: one incomplete row must not fail the whole roster.
    public init?(row: LookupRow) {
        guard !row.isArtist, let kind = row.kind, let platform = Platform(kind: kind),
            let id = row.trackId, let artistId = row.artistId,
            let name = row.trackName, !name.isEmpty,
            let bundleId = row.bundleId, !bundleId.isEmpty,
            let genre = row.primaryGenreName ?? row.genres?.first,
            let floor = row.minimumOsVersion, OSVersion(floor) != nil,
            let icon = row.artworkUrl512 ?? row.artworkUrl100 ?? row.artworkUrl60,
            let storeUrl = row.trackViewUrl, !storeUrl.isEmpty
        else { return nil }
        self.init(
            id: id, artistId: artistId, name: name, bundleId: bundleId, genre: genre,
            formattedPrice: row.formattedPrice, platform: platform,
            devices: DeviceFamilies(supportedDevices: row.supportedDevices, platform: platform),
            minimumOsVersion: floor, iconUrl: icon,
            storeUrl: storeUrl, price: row.price, currency: row.currency, version: row.version,
            averageUserRating: row.averageUserRating, userRatingCount: row.userRatingCount)
    }

    /// True when a reply would show both apps the same: every field of the `App` type equal. `version` and the
    /// ratings are not served, so a change in them alone is not a change of the roster.
    public func hasSameServedFields(as other: App) -> Bool {
        id == other.id && artistId == other.artistId && name == other.name && bundleId == other.bundleId
            && genre == other.genre && formattedPrice == other.formattedPrice && price == other.price
            && currency == other.currency && platform == other.platform && devices == other.devices
            && minimumOsVersion == other.minimumOsVersion && iconUrl == other.iconUrl && storeUrl == other.storeUrl
    }
}
