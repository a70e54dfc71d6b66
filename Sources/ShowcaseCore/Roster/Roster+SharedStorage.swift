/// Sharing storage between storefronts' rosters of one developer.
///
/// The same app in 175 storefronts is usually listed alike: the same name, bundle id, icon, price and floor, and a
/// store URL that differs only in its storefront segment. Such an app shares one ``AppRecord`` with its sibling
/// storefronts (the `App` itself is then a reference and two bytes). An app that differs in some field (a
/// localized name, another currency) gets its own record, whose equal strings still share the sibling's storage,
/// so memory grows with what actually differs. Nothing is interned globally: storage lives exactly as long as
/// some roster uses it, so refreshes never leak.
extension Roster {
    /// This roster with every app equal to the same app's (by id) in `reference` sharing that app's record, and
    /// the strings of the others sharing the reference's equal strings. Content is unchanged: `==` holds for every
    /// app of the result against the same app of `self`.
    public func sharingStorage(with reference: Roster?) -> Roster {
        guard let reference, !reference.apps.isEmpty else { return self }
        let byID = reference.appsByID
        return Roster(
            artistId: artistId, storefront: storefront, fetchedAt: fetchedAt, resultCount: resultCount,
            apps: apps.map { app in byID[app.id].map { app.sharingStorage(with: $0) } ?? app }, body: body,
            droppedRows: droppedRows)
    }

    /// The apps keyed by id (the first wins if upstream repeated one).
    var appsByID: [Int: App] {
        Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension App {
    /// `self` sharing `other`'s record when every field is equal (the store URL up to its storefront segment),
    /// else with each string field equal to `other`'s taking `other`'s storage.
    fileprivate func sharingStorage(with other: App) -> App {
        if record === other.record { return self }
        let theirs = other.record.fields
        var mine = record.fields
        let segment = theirs.storeUrl.match(storeUrl)
        if let segment, mine.sameFieldsButStoreUrl(as: theirs) {
            return App(record: other.record, storeSegment: segment)
        }
        func share(_ field: WritableKeyPath<AppFields, String>) {
            if mine[keyPath: field] == theirs[keyPath: field] { mine[keyPath: field] = theirs[keyPath: field] }
        }
        func share(_ field: WritableKeyPath<AppFields, String?>) {
            if let value = mine[keyPath: field], let shared = theirs[keyPath: field], value == shared {
                mine[keyPath: field] = shared
            }
        }
        share(\.name)
        share(\.bundleId)
        share(\.genre)
        share(\.iconUrl)
        share(\.minimumOsVersion)
        share(\.formattedPrice)
        share(\.currency)
        share(\.version)
        if let segment {
            mine.storeUrl = theirs.storeUrl
            return App(fields: mine, storeSegment: segment)
        }
        return App(fields: mine, storeSegment: storeSegment)
    }
}
