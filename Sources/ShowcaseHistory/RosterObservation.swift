import FoundationEssentials
import ShowcaseCore

/// What one successfully fetched roster says, as far as the change history cares: every usable app with the
/// fields a change is detected in and reported with, and the ids of rows that were dropped as unusable.
///
/// Release notes and the version date are not kept in ``App`` or the cache's apps: they are read here from the
/// roster's raw body, at refresh time, so the cache format stays as it is.
public struct RosterObservation: Sendable, Hashable {
    /// One usable app.
    public struct App: Sendable, Hashable {
        /// trackId.
        public var id: Int
        /// The app as the baseline will remember it.
        public var state: HistoryBaseline.App
        /// `currentVersionReleaseDate`.
        public var versionDate: String?
        /// `releaseNotes`, already capped (``ReleaseNotes/capped(_:)``).
        public var releaseNotes: String?

        /// An app with every field given.
        public init(id: Int, state: HistoryBaseline.App, versionDate: String? = nil, releaseNotes: String? = nil) {
            self.id = id
            self.state = state
            self.versionDate = versionDate
            self.releaseNotes = ReleaseNotes.capped(releaseNotes)
        }
    }

    /// The developer the roster was fetched for.
    public var artistId: Int
    /// The developer's name (`artistName` of the artist row, else of the first app row): the feeds' author.
    public var artistName: String?
    /// When it was fetched: the `at` of the entries it brings.
    public var fetchedAt: Date
    /// The usable apps in upstream order.
    public var apps: [App]
    /// trackIds of software rows that did not become apps (missing fields, refused URLs): each keeps its baseline.
    public var droppedIds: Set<Int>

    /// An observation with every field given (tests).
    public init(artistId: Int, fetchedAt: Date, apps: [App], droppedIds: Set<Int> = [], artistName: String? = nil) {
        self.artistId = artistId
        self.artistName = artistName
        self.fetchedAt = fetchedAt
        self.apps = apps
        self.droppedIds = droppedIds
    }

    /// What `roster` says; its raw body (when it still has one) gives the release notes, version dates and the
    /// ids of dropped rows.
    public init(_ roster: Roster) {
        var details: [Int: LookupRow] = [:]
        var rowIds = Set<Int>()
        var artistName: String?
        if let body = roster.body, let response = try? LookupResponse.decode(body) {
            artistName = (response.results.first(where: \.isArtist) ?? response.softwareRows.first)?.artistName
            for row in response.softwareRows {
                guard let id = row.trackId else { continue }
                rowIds.insert(id)
                if details[id] == nil { details[id] = row }
            }
        }
        let apps = roster.apps.map { app in
            App(
                id: app.id,
                state: HistoryBaseline.App(
                    name: app.name, platform: app.platform, storeUrl: app.storeUrl, iconUrl: app.iconUrl,
                    version: app.version, price: app.price, formattedPrice: app.formattedPrice),
                versionDate: details[app.id]?.currentVersionReleaseDate, releaseNotes: details[app.id]?.releaseNotes)
        }
        let listed = Set(apps.map(\.id))
        self.init(
            artistId: roster.artistId, fetchedAt: roster.fetchedAt, apps: apps, droppedIds: rowIds.subtracting(listed),
            artistName: artistName)
    }
}
