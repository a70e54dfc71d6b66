/// The shared storage of an ``App``'s ``ListingFields``: one immutable object per distinct listing.
///
/// Apart from ``AppRecord`` because a real catalog prices every storefront in its own currency and rates the app
/// there: apart, each storefront's app shares the catalog record and adds only this, so an app priced differently
/// in every storefront still costs one ``AppRecord`` and a listing, never a copy of every field per storefront.
/// Storefronts that list the app alike (the same currency and price, no ratings or the same ones) share this too. A
/// field set through ``App``'s setters makes a new record.
///
/// One of these per app and storefront is the common case, so it is kept small: the numbers are stored without
/// `Optional`'s padding (a `Double?` takes 16 bytes in a class, a `Double` 8), an absent price or rating as NaN
/// and an absent count as `Int.min` — values the lookup never gives (JSON has no NaN; a count is never negative).
final class ListingRecord: Sendable {
    /// `formattedPrice`.
    let formattedPrice: String?
    /// `currency`.
    let currency: String?
    private let priceValue: Double
    private let ratingValue: Double
    private let ratingCountValue: Int

    /// A record of `fields`. A NaN price or rating, or a count of `Int.min`, reads back as absent.
    init(_ fields: ListingFields) {
        formattedPrice = fields.formattedPrice
        currency = fields.currency
        priceValue = fields.price ?? .nan
        ratingValue = fields.averageUserRating ?? .nan
        ratingCountValue = fields.userRatingCount ?? .min
    }

    /// `price`; nil when absent.
    var price: Double? { priceValue.isNaN ? nil : priceValue }
    /// `averageUserRating`; nil when absent.
    var averageUserRating: Double? { ratingValue.isNaN ? nil : ratingValue }
    /// `userRatingCount`; nil when absent.
    var userRatingCount: Int? { ratingCountValue == .min ? nil : ratingCountValue }

    /// The fields, as a value.
    var fields: ListingFields {
        ListingFields(
            formattedPrice: formattedPrice, price: price, currency: currency, averageUserRating: averageUserRating,
            userRatingCount: userRatingCount)
    }
}
