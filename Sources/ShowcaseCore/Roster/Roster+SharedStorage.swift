/// Sharing string storage between storefronts' rosters of one developer.
///
/// The same app in 175 storefronts usually has the same bundle id, icon URL, version and often name: kept as
/// separate strings that is 175 heap copies of each. Swift strings are reference-counted values, so a roster
/// whose field equals a sibling roster's can hold the sibling's storage instead — memory then grows with what
/// actually differs (mostly the store URL). Nothing is interned globally: storage lives exactly as long as some
/// roster uses it, so refreshes never leak.
extension Roster {
    /// This roster with every app string that equals the same app's (by id) in `reference` sharing that
    /// string's storage. Content is unchanged: `hasSameContent(as: self)` holds for the result.
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
    /// `self` with each string field equal to `other`'s taking `other`'s storage.
    fileprivate func sharingStorage(with other: App) -> App {
        var app = self
        func share(_ field: WritableKeyPath<App, String>) {
            if app[keyPath: field] == other[keyPath: field] { app[keyPath: field] = other[keyPath: field] }
        }
        func share(_ field: WritableKeyPath<App, String?>) {
            if let mine = app[keyPath: field], let theirs = other[keyPath: field], mine == theirs {
                app[keyPath: field] = theirs
            }
        }
        share(\.name)
        share(\.bundleId)
        share(\.genre)
        share(\.iconUrl)
        share(\.storeUrl)
        share(\.formattedPrice)
        share(\.currency)
        share(\.version)
        return app
    }
}
