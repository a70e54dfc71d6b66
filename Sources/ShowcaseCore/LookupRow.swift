import Foundation

/// One row of a lookup response, decoded leniently: every field is optional on the wire.
///
/// Apple omits fields freely (a Mac row may lack `supportedDevices`, a free app `formattedPrice` in some
/// storefronts), and types are not what names suggest: `price` and the ratings are floats, `fileSizeBytes` is
/// a string. A field of an unexpected type decodes as nil instead of failing the whole body, so one odd row
/// can never take a storefront's roster down. Only the fields showcased uses are kept; the raw body is kept
/// by ``Roster`` for everything else.
public struct LookupRow: Sendable, Hashable, Codable {
    public var wrapperType: String?
    public var kind: String?
    public var artistType: String?
    public var artistId: Int?
    public var artistName: String?
    public var trackId: Int?
    public var trackName: String?
    public var bundleId: String?
    public var sellerName: String?
    public var primaryGenreName: String?
    public var genres: [String]?
    public var price: Double?
    public var formattedPrice: String?
    public var currency: String?
    public var minimumOsVersion: String?
    public var version: String?
    public var artworkUrl60: String?
    public var artworkUrl100: String?
    public var artworkUrl512: String?
    public var trackViewUrl: String?
    public var averageUserRating: Double?
    public var userRatingCount: Int?
    public var fileSizeBytes: String?
    public var releaseDate: String?
    public var currentVersionReleaseDate: String?

    private enum CodingKeys: String, CodingKey {
        case wrapperType, kind, artistType, artistId, artistName, trackId, trackName, bundleId, sellerName
        case primaryGenreName, genres, price, formattedPrice, currency, minimumOsVersion, version
        case artworkUrl60, artworkUrl100, artworkUrl512, trackViewUrl, averageUserRating, userRatingCount
        case fileSizeBytes, releaseDate, currentVersionReleaseDate
    }

    /// A row with every field nil; tests and fakes fill in what they need.
    public init() {}

    /// Decodes each field independently; a field of the wrong type is nil, never an error.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) -> String? { (try? c.decodeIfPresent(String.self, forKey: key)) ?? nil }
        func int(_ key: CodingKeys) -> Int? {
            if let value = (try? c.decodeIfPresent(Int.self, forKey: key)) ?? nil { return value }
            return (try? c.decodeIfPresent(String.self, forKey: key)).flatMap { $0.flatMap { Int($0) } }
        }
        func double(_ key: CodingKeys) -> Double? { (try? c.decodeIfPresent(Double.self, forKey: key)) ?? nil }
        wrapperType = string(.wrapperType)
        kind = string(.kind)
        artistType = string(.artistType)
        artistId = int(.artistId)
        artistName = string(.artistName)
        trackId = int(.trackId)
        trackName = string(.trackName)
        bundleId = string(.bundleId)
        sellerName = string(.sellerName)
        primaryGenreName = string(.primaryGenreName)
        genres = (try? c.decodeIfPresent([String].self, forKey: .genres)) ?? nil
        price = double(.price)
        formattedPrice = string(.formattedPrice)
        currency = string(.currency)
        minimumOsVersion = string(.minimumOsVersion)
        version = string(.version)
        artworkUrl60 = string(.artworkUrl60)
        artworkUrl100 = string(.artworkUrl100)
        artworkUrl512 = string(.artworkUrl512)
        trackViewUrl = string(.trackViewUrl)
        averageUserRating = double(.averageUserRating)
        userRatingCount = int(.userRatingCount)
        fileSizeBytes = string(.fileSizeBytes)
        releaseDate = string(.releaseDate)
        currentVersionReleaseDate = string(.currentVersionReleaseDate)
    }

    /// True for the artist row (`wrapperType: artist`), which describes the developer and is not an app.
    public var isArtist: Bool { wrapperType == "artist" }

    /// True for a software row of a known store (`kind` `software` or `mac-software`).
    public var isSoftware: Bool { wrapperType == "software" || kind.flatMap(Platform.init(kind:)) != nil }
}
