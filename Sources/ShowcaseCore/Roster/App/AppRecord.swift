/// The shared storage of an ``App``: one immutable object per distinct app, however many storefronts list it.
///
/// Twenty developers × 173 storefronts × 200 apps are 692,000 apps in memory; as plain structs (248 bytes each
/// plus a store URL on the heap) they were 250 MB. An ``App`` is now a reference to one of these, a reference to
/// its storefront's ``ListingRecord`` (price, currency, ratings) and the two-letter store URL segment (24 bytes),
/// and the cache decoder and the store hand the same record to every storefront whose app has equal fields, in
/// whatever currency it is priced there (``App/sharesAppRecord(with:)``). A field set through ``App``'s setters
/// makes a new record: a shared one is never changed.
final class AppRecord: Sendable {
    /// The fields.
    let fields: AppFields

    /// A record of `fields`.
    init(_ fields: AppFields) {
        self.fields = fields
    }
}
