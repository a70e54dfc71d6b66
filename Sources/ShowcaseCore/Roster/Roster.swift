import Foundation

/// One developer's catalog in one storefront, as fetched at one moment.
///
/// A roster holds everything the API said — the raw body for the cache, and the decoded apps for queries — but
/// no filtering or overlay: those are applied at read time by ``RosterQuery``, so a reload or a different
/// query's OS version takes effect without refetching.
public struct Roster: Sendable {
    /// The developer (`artistId`) the roster was requested for.
    public let artistId: Int
    /// The storefront it came from. There is no fallback between storefronts.
    public let storefront: Storefront
    /// When it was fetched, by the daemon's ``ShowcaseClock``. Stored inside the cache payload, never taken from mtime.
    public let fetchedAt: Date
    /// `resultCount` as upstream sent it (artist row included).
    public let resultCount: Int
    /// The apps in upstream order: artist row, unknown kinds and incomplete rows already dropped.
    public let apps: [App]
    /// The response body exactly as the API gave it, which the cache stores. Nil after ``compacted()``.
    public let body: Data?

    /// Decodes a roster body for `artistId` in `storefront`.
    ///
    /// - Throws: ``LookupError/malformed(detail:)`` for a body that is not a lookup response or that describes
    ///   another developer; ``LookupError/missingEntityParameter(storefront:resultCount:)`` when
    ///   `resultCount > 0` but no software row came back — the answer to a request without `entity=software`,
    ///   which must never read as "this developer has no apps". `resultCount: 0` is a valid empty roster: the
    ///   developer sells nothing in this storefront.
    public init(artistId: Int, storefront: Storefront, body: Data, fetchedAt: Date) throws(LookupError) {
        let response = try LookupResponse.decode(body)
        if let artist = response.results.first(where: \.isArtist), let other = artist.artistId, other != artistId {
            throw .malformed(detail: "roster for developer \(artistId) describes developer \(other)")
        }
        if response.resultCount > 0 || !response.results.isEmpty, response.softwareRows.isEmpty {
            throw .missingEntityParameter(
                storefront: storefront, resultCount: max(response.resultCount, response.results.count))
        }
        self.init(
            artistId: artistId, storefront: storefront, fetchedAt: fetchedAt, resultCount: response.resultCount,
            apps: response.results.compactMap(App.init(row:)), body: body)
    }

    /// Creates a roster from already-decoded apps (tests, fakes, a compacted copy).
    public init(artistId: Int, storefront: Storefront, fetchedAt: Date, resultCount: Int, apps: [App], body: Data?) {
        self.artistId = artistId
        self.storefront = storefront
        self.fetchedAt = fetchedAt
        self.resultCount = resultCount
        self.apps = apps
        self.body = body
    }

    /// The same roster without the raw body, for keeping many storefronts in memory once the body is on disk.
    public func compacted() -> Roster {
        Roster(
            artistId: artistId, storefront: storefront, fetchedAt: fetchedAt, resultCount: resultCount, apps: apps,
            body: nil)
    }

    /// True when both rosters would answer every query identically: same developer, storefront, result count
    /// and apps. `fetchedAt` and the raw body's bytes do not count, so an identical refresh is not a new
    /// revision and `Watch` stays quiet.
    public func hasSameContent(as other: Roster) -> Bool {
        artistId == other.artistId && storefront == other.storefront && resultCount == other.resultCount
            && apps == other.apps
    }

    /// The app with `id`, if this storefront lists it.
    public func app(id: Int) -> App? { apps.first { $0.id == id } }
}
