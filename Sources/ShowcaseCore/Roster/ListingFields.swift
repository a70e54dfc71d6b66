/// What one storefront says of an ``App`` besides the app itself: its price there, in which currency and how the
/// storefront writes it, and its ratings there. A real catalog gives these per storefront (EUR and "4,99 €" in
/// de, JPY in jp, each storefront's own ratings) while the rest of the app is alike, so they are stored apart
/// from the ``AppFields``, in a ``ListingRecord``: an app listed in 173 currencies still shares one
/// ``AppRecord``.
struct ListingFields: Sendable, Equatable {
    var formattedPrice: String?
    var price: Double?
    var currency: String?
    var averageUserRating: Double?
    var userRatingCount: Int?
}
