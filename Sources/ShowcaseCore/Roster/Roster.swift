import FoundationEssentials

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
    /// The software rows of the body that did not become apps, and why (for a roster read from the cache's apps
    /// section, which holds only the apps, just those the current URL rules refused). Status reports the count; the
    /// log names the reasons.
    public let droppedRows: DroppedRows
    /// The URL rules every app was checked against; nil for a roster built from apps by hand. The cache decoder
    /// trusts an app sharing its record with this roster's only when its own rules are these.
    var checkedURLRules: URLRules?

    /// Decodes a roster body for `artistId` in `storefront`, checking it as an answer from an untrusted peer.
    ///
    /// - Throws: ``LookupError/malformed(detail:)`` for a body that is not a lookup response, that describes
    ///   another developer, whose store URLs name another storefront ("asked for jp, answered for us": a
    ///   redirect or a proxy served the wrong store), that holds more software rows than the request's `limit`,
    ///   or whose software rows **all** dropped (unknown kinds, renamed or missing fields: never a fresh empty
    ///   roster); ``LookupError/missingEntityParameter(storefront:resultCount:)`` when `resultCount > 0` but no
    ///   software row came back — the answer to a request without `entity=software`, which must never read as
    ///   "this developer has no apps". `resultCount: 0` is a valid empty roster: the developer sells nothing in
    ///   this storefront. A repeated trackId keeps its first row; the others count in ``droppedRows``.
    ///
    /// An app whose store or icon URL `urlRules` refuses (a `javascript:` link, a foreign host) is dropped and
    /// counted before its trackId is taken, so a hostile row cannot shadow a good one with the same id.
    /// `urlRules` defaults to the default configuration's; the daemon passes the current `lookup.artwork_hosts`.
    public init(
        artistId: Int, storefront: Storefront, body: Data, fetchedAt: Date, urlRules: URLRules = .standard
    ) throws(LookupError) {
        let response = try LookupResponse.decode(body)
        if let artist = response.results.first(where: \.isArtist), let other = artist.artistId, other != artistId {
            throw .malformed(detail: "roster for developer \(artistId) describes developer \(other)")
        }
        let software = response.softwareRows
        if response.resultCount > 0 || !response.results.isEmpty, software.isEmpty {
            throw .missingEntityParameter(
                storefront: storefront, resultCount: max(response.resultCount, response.results.count))
        }
        if software.count > LookupRequest.rosterLimit {
            throw .malformed(
                detail: "\(software.count) software rows for a request limited to \(LookupRequest.rosterLimit)")
        }
        var apps: [App] = []
        var seen = Set<Int>()
        var dropped = DroppedRows()
        for row in response.results where !row.isArtist {
            guard let app = App(row: row) else {
                dropped.add(App.dropReason(for: row) ?? "incomplete")
                continue
            }
            if let reason = urlRules.dropReason(for: app) {
                dropped.add(reason)
                continue
            }
            guard seen.insert(app.id).inserted else {
                dropped.add("with a repeated trackId")
                continue
            }
            if let answered = App.storefrontCode(inStoreUrl: app.storeUrl), answered != storefront.code {
                throw .malformed(
                    detail: "asked for \(storefront.code), answered for \(answered) (app \(app.id)'s store URL)")
            }
            apps.append(app)
        }
        if apps.isEmpty, dropped.count > 0 {
            throw .malformed(detail: "no usable app: all \(dropped)")
        }
        self.init(
            artistId: artistId, storefront: storefront, fetchedAt: fetchedAt, resultCount: response.resultCount,
            apps: apps, body: body, droppedRows: dropped)
        checkedURLRules = urlRules
    }

    /// Creates a roster from already-decoded apps (tests, fakes, a compacted copy).
    public init(
        artistId: Int, storefront: Storefront, fetchedAt: Date, resultCount: Int, apps: [App], body: Data?,
        droppedRows: DroppedRows = DroppedRows()
    ) {
        self.droppedRows = droppedRows
        self.artistId = artistId
        self.storefront = storefront
        self.fetchedAt = fetchedAt
        self.resultCount = resultCount
        self.apps = apps
        self.body = body
    }

    /// The same roster without the raw body, for keeping many storefronts in memory once the body is on disk.
    public func compacted() -> Roster {
        var compacted = Roster(
            artistId: artistId, storefront: storefront, fetchedAt: fetchedAt, resultCount: resultCount, apps: apps,
            body: nil, droppedRows: droppedRows)
        compacted.checkedURLRules = checkedURLRules
        return compacted
    }

    /// True when both rosters would answer every query identically: same developer, storefront, and apps equal in
    /// every served field (``App/hasSameServedFields(as:)``). `fetchedAt`, the raw body's bytes, `resultCount` and
    /// fields no reply shows (ratings, version) do not count, so an identical refresh — or the daily rating churn
    /// of a live app — is not a new revision and `Watch` stays quiet.
    public func hasSameContent(as other: Roster) -> Bool {
        artistId == other.artistId && storefront == other.storefront
            && apps.elementsEqual(other.apps) { $0.hasSameServedFields(as: $1) }
    }

    /// The app with `id`, if this storefront lists it.
    public func app(id: Int) -> App? { apps.first { $0.id == id } }
}
