/// The fields of one ``App`` that do not depend on the storefront listing it — what it is, not what it costs
/// there — stored once in an ``AppRecord`` and shared by every storefront listing the app the same way. The store
/// URL is a ``StoreURLTemplate``: the storefront's own segment lives in the ``App``. Price, currency and ratings,
/// which a real catalog gives per storefront, are ``ListingFields``.
struct AppFields: Sendable {
    var id: Int
    var artistId: Int
    var name: String
    var bundleId: String
    var genre: String
    var platform: Platform
    var devices: DeviceFamilies
    var minimumOsVersion: String
    var minimumOS: OSVersion
    var iconUrl: String
    var storeUrl: StoreURLTemplate
    var version: String?
    var genreId: Int?
    /// The table's upstream texts this app has (``AppField/upstreamTexts``), by field name; empty when none.
    var upstreamTexts: [String: String] = [:]

    /// True when both hold the same value in every field but the store URL (which the caller compares with
    /// its segment). The floor is compared as text: equal text is an equal parsed floor. (What a reply shows is
    /// compared by the projection instead: ``App/hasSameServedFields(as:)``.)
    func sameFieldsButStoreUrl(as other: AppFields) -> Bool {
        id == other.id && artistId == other.artistId && name == other.name && bundleId == other.bundleId
            && genre == other.genre && platform == other.platform && devices == other.devices
            && minimumOsVersion == other.minimumOsVersion && iconUrl == other.iconUrl && genreId == other.genreId
            && version == other.version && upstreamTexts == other.upstreamTexts
    }
}
