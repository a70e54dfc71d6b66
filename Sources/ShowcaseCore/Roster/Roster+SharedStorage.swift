/// Sharing storage between storefronts' rosters of one developer.
///
/// The same app in 175 storefronts is usually the same app: the same name, bundle id, icon and floor, and a store
/// URL that differs only in its storefront segment; what a real catalog gives per storefront is the price, its
/// currency and label, and the ratings. Such an app shares one ``AppRecord`` with its sibling storefronts, and one
/// ``ListingRecord`` with those that also price and rate it alike (the `App` itself is then two references and two
/// bytes). An app that differs in some other field (a localized name) gets its own record, whose equal strings
/// still share the sibling's storage, so memory grows with what actually differs. Nothing is interned globally:
/// storage lives exactly as long as some roster uses it, so refreshes never leak.
extension Roster {
    /// This roster with every app equal to the same app's (by id) in `reference` sharing that app's record, and
    /// the strings of the others sharing the reference's equal strings. Content is unchanged: `==` holds for every
    /// app of the result against the same app of `self`.
    public func sharingStorage(with reference: Roster?) -> Roster {
        guard let reference, !reference.apps.isEmpty else { return self }
        let byID = reference.appsByID
        var shared = Roster(
            artistId: artistId, storefront: storefront, fetchedAt: fetchedAt, resultCount: resultCount,
            apps: apps.map { app in byID[app.id].map { app.sharingStorage(with: $0) } ?? app }, body: body,
            droppedRows: droppedRows)
        shared.checkedURLRules = checkedURLRules
        return shared
    }

    /// The apps keyed by id (the first wins if upstream repeated one).
    var appsByID: [Int: App] {
        Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension App {
    /// `self` sharing `other`'s records where their fields are equal (the store URL up to its storefront segment),
    /// else with each string field equal to `other`'s taking `other`'s storage.
    fileprivate func sharingStorage(with other: App) -> App {
        if record === other.record && listing === other.listing { return self }
        let listing = sharedListing(with: other)
        if record === other.record { return App(record: record, listing: listing, storeSegment: storeSegment) }
        let theirs = other.record.fields
        var mine = record.fields
        let segment = theirs.storeUrl.match(storeUrl)
        if let segment, mine.sameFieldsButStoreUrl(as: theirs) {
            return App(record: other.record, listing: listing, storeSegment: segment)
        }
        func share(_ field: WritableKeyPath<AppFields, String>) {
            if mine[keyPath: field] == theirs[keyPath: field] { mine[keyPath: field] = theirs[keyPath: field] }
        }
        share(\.name)
        share(\.bundleId)
        share(\.genre)
        share(\.iconUrl)
        share(\.minimumOsVersion)
        if let version = mine.version, let shared = theirs.version, version == shared { mine.version = shared }
        // One dictionary for every storefront's equal upstream texts (an age rating is alike everywhere).
        if mine.upstreamTexts == theirs.upstreamTexts { mine.upstreamTexts = theirs.upstreamTexts }
        if let segment {
            mine.storeUrl = theirs.storeUrl
            return App(record: AppRecord(mine), listing: listing, storeSegment: segment)
        }
        return App(record: AppRecord(mine), listing: listing, storeSegment: storeSegment)
    }

    /// `other`'s listing when equal to this one, else this one with the strings equal to `other`'s sharing them.
    private func sharedListing(with other: App) -> ListingRecord {
        if listing === other.listing || listing.fields == other.listing.fields { return other.listing }
        let theirs = other.listing.fields
        var mine = listing.fields
        var shared = false
        if let text = mine.currency, let same = theirs.currency, text == same {
            mine.currency = same
            shared = true
        }
        if let text = mine.formattedPrice, let same = theirs.formattedPrice, text == same {
            mine.formattedPrice = same
            shared = true
        }
        return shared ? ListingRecord(mine) : listing
    }
}
