import FoundationEssentials

/// One row of a lookup response, decoded leniently: every field is optional on the wire.
///
/// Apple omits fields freely (a Mac row may lack `supportedDevices`, a free app `formattedPrice` in some
/// storefronts), and types are not what names suggest: `price` and the ratings are floats, `fileSizeBytes` is
/// a string. A field of an unexpected type decodes as nil instead of failing the whole body, so one odd row
/// can never take a storefront's roster down. Only the fields showcased uses are kept; the raw body is kept
/// by ``Roster`` for everything else.
public struct LookupRow: Sendable, Hashable, Codable {
    /// `software` for an app row, `artist` for the developer row that leads a roster reply.
    public var wrapperType: String?
    /// `software` (iOS App Store) or `mac-software` (Mac App Store): this, not `wrapperType`, decides the store and so
    /// the ``Platform``.
    public var kind: String?
    /// On the artist row, `Software Artist`; decoded but unused.
    public var artistType: String?
    /// The developer's id, on the artist row and every app row; the key rosters are fetched and cached by. An integer
    /// on the wire; a numeric string is accepted too.
    public var artistId: Int?
    /// The developer's display name, as the storefront localizes it.
    public var artistName: String?
    /// Device models the app runs on (`iPhone15-iPhone15`, `iPadPro11M4-iPadPro11M4`, `Watch7-Watch7`,
    /// `MacDesktop-MacDesktop`); mapped to ``DeviceFamilies`` by prefix. Absent on most Mac rows.
    public var supportedDevices: [String]?
    /// The app's id on the wire (Apple calls apps "tracks"): the `id` in replies, pins and exclusions. An integer; a
    /// numeric string is accepted too.
    public var trackId: Int?
    /// The app's name, localized by the storefront; a row without one is dropped.
    public var trackName: String?
    /// The bundle identifier, e.g. `com.example.NoteJar`; how a host finds its developer.
    public var bundleId: String?
    /// The legal seller, often a company name that differs from `artistName`; decoded but unused.
    public var sellerName: String?
    /// The primary genre's localized name; when absent the first of `genres` stands in.
    public var primaryGenreName: String?
    /// The primary genre's id, the same in every storefront (6014 Games, 6002 Utilities, 7001–7019 game
    /// subgenres): what a page maps to a schema.org category. An integer; a numeric string is accepted too.
    public var primaryGenreId: Int?
    /// Localized genre names, primary first; only the fallback for `primaryGenreName`.
    public var genres: [String]?
    /// A JSON float (`0.0`, `2.99`), not a string or an integer; `formattedPrice` is the text to display.
    public var price: Double?
    /// The price as the storefront displays it (`Free`, `$2.99`, `2,99 €`), already localized; may be absent.
    public var formattedPrice: String?
    /// ISO 4217 code of `price` (`USD`).
    public var currency: String?
    /// The lowest OS version the app runs on, a string like `16.0`; a row whose value does not parse is dropped.
    public var minimumOsVersion: String?
    /// The current version string as the developer wrote it (`2.3.2`); free-form, never compared.
    public var version: String?
    /// Icon URL at 60×60; the last fallback when the larger sizes are missing.
    public var artworkUrl60: String?
    /// Icon URL at 100×100; the fallback when `artworkUrl512` is missing.
    public var artworkUrl100: String?
    /// Icon URL at 512×512: the preferred icon.
    public var artworkUrl512: String?
    /// The App Store page URL, with Apple's `uo=4` tracking parameter; attribution tokens are added to it later.
    public var trackViewUrl: String?
    /// A JSON float from 0 to 5 (`4.27`), not an integer.
    public var averageUserRating: Double?
    /// How many ratings `averageUserRating` averages. An integer; a numeric string is accepted too.
    public var userRatingCount: Int?
    /// The download size in bytes, sent as a *string* (`"43691267"`), not a number; decoded but unused.
    public var fileSizeBytes: String?
    /// First release, an ISO 8601 string (`2021-03-11T07:00:00Z`); decoded but unused.
    public var releaseDate: String?
    /// Release of the current version, an ISO 8601 string: the change history's `versionDate`.
    public var currentVersionReleaseDate: String?
    /// What the developer wrote about the current version; the change history keeps it (capped) with an `updated`
    /// entry. Never served with the roster.
    public var releaseNotes: String?

    /// The values of the field table's upstream fields (``AppField/upstreamTexts``) the row has, by field name, each
    /// read from its ``AppField/upstreamKey`` as the text it is stored as (``AppField/upstreamText(in:)``: a text
    /// bounded like ``TextBound/other(_:)``, a number in its shortest form); a missing, empty or mistyped value has
    /// no entry.
    public var texts: [String: String] = [:]

    private enum CodingKeys: String, CodingKey {
        case wrapperType, kind, artistType, artistId, artistName, supportedDevices, trackId, trackName, bundleId
        case sellerName
        case primaryGenreName, primaryGenreId, genres, price, formattedPrice, currency, minimumOsVersion, version
        case artworkUrl60, artworkUrl100, artworkUrl512, trackViewUrl, averageUserRating, userRatingCount
        case fileSizeBytes, releaseDate, currentVersionReleaseDate, releaseNotes
    }

    /// A row with every field nil; tests and fakes fill in what they need.
    public init() {}

    /// Decodes each field independently; a field of the wrong type is nil, never an error.
    ///
    /// Every text is bounded here, where upstream text enters (``TextBound``, SPEC §20): names, versions and
    /// sellers at 255 characters, release notes at 4 KiB, the rest at 1 KiB, each cut with `…`. URLs are kept
    /// whole for ``URLRules`` to refuse when over 1 KiB.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func raw(_ key: CodingKeys) -> String? { (try? c.decodeIfPresent(String.self, forKey: key)) ?? nil }
        func string(_ key: CodingKeys) -> String? { raw(key).map(TextBound.other) }
        func name(_ key: CodingKeys) -> String? { raw(key).map(TextBound.name) }
        func strings(_ key: CodingKeys) -> [String]? {
            ((try? c.decodeIfPresent([String].self, forKey: key)) ?? nil)?.map(TextBound.other)
        }
        func int(_ key: CodingKeys) -> Int? {
            if let value = (try? c.decodeIfPresent(Int.self, forKey: key)) ?? nil { return value }
            return (try? c.decodeIfPresent(String.self, forKey: key)).flatMap { $0.flatMap { Int($0) } }
        }
        func double(_ key: CodingKeys) -> Double? { (try? c.decodeIfPresent(Double.self, forKey: key)) ?? nil }
        wrapperType = string(.wrapperType)
        kind = string(.kind)
        artistType = string(.artistType)
        artistId = int(.artistId)
        artistName = name(.artistName)
        supportedDevices = strings(.supportedDevices)
        trackId = int(.trackId)
        trackName = name(.trackName)
        bundleId = string(.bundleId)
        sellerName = name(.sellerName)
        primaryGenreName = string(.primaryGenreName)
        primaryGenreId = int(.primaryGenreId)
        genres = strings(.genres)
        price = double(.price)
        formattedPrice = string(.formattedPrice)
        currency = string(.currency)
        minimumOsVersion = string(.minimumOsVersion)
        version = name(.version)
        artworkUrl60 = raw(.artworkUrl60)
        artworkUrl100 = raw(.artworkUrl100)
        artworkUrl512 = raw(.artworkUrl512)
        trackViewUrl = raw(.trackViewUrl)
        averageUserRating = double(.averageUserRating)
        userRatingCount = int(.userRatingCount)
        fileSizeBytes = string(.fileSizeBytes)
        releaseDate = string(.releaseDate)
        currentVersionReleaseDate = string(.currentVersionReleaseDate)
        releaseNotes = raw(.releaseNotes).map(TextBound.releaseNotes)
        texts = Self.texts(from: decoder)
    }

    private static func texts(from decoder: any Decoder) -> [String: String] {
        guard !AppField.upstreamTexts.isEmpty, let c = try? decoder.container(keyedBy: AppField.Key.self) else {
            return [:]
        }
        var texts: [String: String] = [:]
        for field in AppField.upstreamTexts {
            if let text = field.upstreamText(in: c) { texts[field.name] = text }
        }
        return texts
    }

    /// True for the artist row (`wrapperType: artist`), which describes the developer and is not an app.
    public var isArtist: Bool { wrapperType == "artist" }

    /// True for a software row of a known store (`kind` `software` or `mac-software`).
    public var isSoftware: Bool { wrapperType == "software" || kind.flatMap(Platform.init(kind:)) != nil }
}
