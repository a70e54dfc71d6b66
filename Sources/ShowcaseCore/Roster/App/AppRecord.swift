/// The shared storage of an ``App``: one immutable object per distinct app, however many storefronts list it.
///
/// The same app is listed in every storefront, so memory must grow with distinct apps, not with apps ×
/// storefronts: an ``App`` is a reference to one of these, a reference to its storefront's ``ListingRecord``
/// (price, currency, ratings) and the two-letter store URL segment (24 bytes), and the cache decoder and the store
/// hand the same record to every storefront whose app has equal fields, in whatever currency it is priced there
/// (``App/sharesAppRecord(with:)``). A field set through ``App``'s setters makes a new record: a shared one is
/// never changed.
final class AppRecord: Sendable {
    /// The fields.
    let fields: AppFields

    /// A record of `fields`.
    init(_ fields: AppFields) {
        self.fields = fields
    }
}
