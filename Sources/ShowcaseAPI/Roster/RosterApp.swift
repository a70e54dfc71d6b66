import Varlink

/// One `App` of `io.showcase.Roster`: a row of `Get`, `GetApp` and `Watch` replies, as a client shows it.
///
/// Names, genre and price are the storefront's own, already localized; `storeUrl` carries the attribution
/// tokens when the daemon is configured with them; `tagline` comes only from the overlay.
///
/// The IDL's field list may grow (SPEC §8): a member this type has no property for is kept in ``otherFields``,
/// so decoding and encoding an app again (as the daemon's `GetApp` reply does), or comparing two, loses none of what
/// the daemon serves. A field the daemon starts serving therefore needs no change here; a property is added when a client
/// wants to read it by name.
public struct RosterApp: APIValue {
    /// The app's trackId.
    public var id: Int
    /// The developer's artistId.
    public var artistId: Int
    /// The name as the storefront spells it.
    public var name: String
    /// The app's bundle identifier.
    public var bundleId: String
    /// The primary genre, localized by the storefront.
    public var genre: String
    /// The price as the storefront formats it ("Gratis", "2,99 €"); nil when the storefront gave none.
    public var formattedPrice: String?
    /// The price as a number in `currency` (`2.99`, `0`), for structured markup such as schema.org offers; nil when
    /// the storefront gave none. Display `formattedPrice`, not this.
    public var price: Double?
    /// The ISO 4217 code of `price` (`EUR`); nil when the storefront gave none.
    public var currency: String?
    /// `ios` (iOS App Store) or `macos` (Mac App Store).
    public var platform: String
    /// The device families it runs on, from `iphone ipad watch tv vision mac` (`mac` on an iOS app: it also runs on
    /// Apple silicon Macs, which is not the Mac App Store). Empty only in a reply from a daemon that predates it.
    public var devices: [String]
    /// The oldest OS version the app runs on, as the storefront gives it ("16.0").
    public var minimumOsVersion: String
    /// The artwork URL.
    public var iconUrl: String
    /// The App Store URL, with attribution (`pt`, `ct`, `mt`) when configured.
    public var storeUrl: String
    /// The overlay's tagline for the query's locale, nil when the overlay has none.
    public var tagline: String?
    /// The primary genre's App Store id (6014 Games, 6002 Utilities), the same in every storefront and language
    /// where `genre` is localized; nil when the lookup gave none, or from a daemon that predates the field.
    public var genreId: Int?
    /// The object's other members, by name: fields of the `App` type that have no property above.
    public var otherFields: [String: JSONValue] = [:]

    /// The members read into the properties above.
    static let propertyNames: Set<String> = [
        "id", "artistId", "name", "bundleId", "genre", "formattedPrice", "price", "currency", "platform", "devices",
        "minimumOsVersion", "iconUrl", "storeUrl", "tagline", "genreId",
    ]

    /// An app with every field given.
    public init(
        id: Int, artistId: Int, name: String, bundleId: String, genre: String, formattedPrice: String?,
        price: Double?, currency: String?, platform: String, devices: [String], minimumOsVersion: String,
        iconUrl: String, storeUrl: String, tagline: String?, genreId: Int? = nil,
        otherFields: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.artistId = artistId
        self.name = name
        self.bundleId = bundleId
        self.genre = genre
        self.formattedPrice = formattedPrice
        self.price = price
        self.currency = currency
        self.platform = platform
        self.devices = devices
        self.minimumOsVersion = minimumOsVersion
        self.iconUrl = iconUrl
        self.storeUrl = storeUrl
        self.tagline = tagline
        self.genreId = genreId
        self.otherFields = otherFields.filter { !Self.propertyNames.contains($0.key) }
    }

    /// Reads an `App` object.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        id = try object.int("id")
        artistId = try object.int("artistId")
        name = try object.string("name")
        bundleId = try object.string("bundleId")
        genre = try object.string("genre")
        formattedPrice = try object.optionalString("formattedPrice")
        price = try object.optionalDouble("price")
        currency = try object.optionalString("currency")
        platform = try object.string("platform")
        // A daemon older than the field sends none: read as unknown (empty), not as a broken reply.
        devices = object.members["devices"].map { $0.isNull } == false ? try object.strings("devices") : []
        minimumOsVersion = try object.string("minimumOsVersion")
        iconUrl = try object.string("iconUrl")
        storeUrl = try object.string("storeUrl")
        tagline = try object.optionalString("tagline")
        genreId = try object.optionalInt("genreId")
        otherFields = object.members.filter { !Self.propertyNames.contains($0.key) && !$0.value.isNull }
    }

    /// The `App` object; nil prices, currency, tagline and genre id are omitted; ``otherFields`` as they are.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 15 + otherFields.count)
        for (name, value) in otherFields { object.set(name, value) }
        object.set("id", id)
        object.set("artistId", artistId)
        object.set("name", name)
        object.set("bundleId", bundleId)
        object.set("genre", genre)
        object.set("formattedPrice", formattedPrice)
        object.set("price", price)
        object.set("currency", currency)
        object.set("platform", platform)
        object.set("devices", devices)
        object.set("minimumOsVersion", minimumOsVersion)
        object.set("iconUrl", iconUrl)
        object.set("storeUrl", storeUrl)
        object.set("tagline", tagline)
        object.set("genreId", genreId)
        return object.object
    }
}
