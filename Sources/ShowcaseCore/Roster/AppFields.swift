/// Every field of one ``App``, stored once in an ``AppRecord`` and shared by every storefront listing the app
/// the same way. The store URL is a ``StoreURLTemplate``: the storefront's own segment lives in the ``App``.
struct AppFields: Sendable {
    var id: Int
    var artistId: Int
    var name: String
    var bundleId: String
    var genre: String
    var formattedPrice: String?
    var platform: Platform
    var devices: DeviceFamilies
    var minimumOsVersion: String
    var minimumOS: OSVersion
    var iconUrl: String
    var storeUrl: StoreURLTemplate
    var price: Double?
    var currency: String?
    var version: String?
    var averageUserRating: Double?
    var userRatingCount: Int?

    /// True when both hold the same value in every field but the store URL (which the caller compares with
    /// its segment). The floor is compared as text: equal text is an equal parsed floor.
    func sameFieldsButStoreUrl(as other: AppFields) -> Bool {
        sameServedFieldsButStoreUrl(as: other) && version == other.version
            && averageUserRating == other.averageUserRating && userRatingCount == other.userRatingCount
    }

    /// ``sameFieldsButStoreUrl(as:)`` for the fields a reply shows (not `version`, not the ratings).
    func sameServedFieldsButStoreUrl(as other: AppFields) -> Bool {
        id == other.id && artistId == other.artistId && name == other.name && bundleId == other.bundleId
            && genre == other.genre && formattedPrice == other.formattedPrice && price == other.price
            && currency == other.currency && platform == other.platform && devices == other.devices
            && minimumOsVersion == other.minimumOsVersion && iconUrl == other.iconUrl
    }
}
