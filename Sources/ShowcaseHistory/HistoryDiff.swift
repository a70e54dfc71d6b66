import FoundationEssentials

/// The comparison of a roster with the baseline before it: the entries it brings and the baseline after it. Pure:
/// no files, no clock (the roster's fetch time is the entries' `at`).
///
/// - No baseline: the roster becomes the baseline and records nothing (the first roster ever fetched, or the
///   first after an upgrade from a release without history: an old cache never invents entries).
/// - Another developer than the baseline's (the host was transferred): a new baseline, nothing recorded.
/// - Otherwise, per app in roster order: `added` (an id the baseline lacks), `updated` (its `version` changed),
///   `price` (its `price` changed); then `removed` for each id the baseline has and the roster neither lists nor
///   dropped as unusable. A dropped row keeps its baseline, so it is neither removed now nor added when it is
///   usable again. The host app (`hostTrackId`) is in neither the entries nor the baseline.
///
/// The baseline also keeps each app's current release (``HistoryBaseline/Release``), the host's included; it is never
/// compared, only shown.
///
/// A roster holds at most 200 apps, so one comparison brings at most 600 entries (200 updated and repriced, 200
/// removed), however long the daemon was down: it compares with the baseline, never replays refreshes.
public enum HistoryDiff {
    /// The entries `roster` brings after `baseline` (numbered from `baseline.lastSerial + 1`, or from
    /// `firstSerial` when that is larger), and the baseline to keep after them.
    public static func compare(
        _ roster: RosterObservation, with baseline: HistoryBaseline?, hostTrackId: Int?, firstSerial: Int = 1
    ) -> (entries: [HistoryEntry], baseline: HistoryBaseline) {
        let lastSerial = max(baseline?.lastSerial ?? 0, firstSerial - 1)
        var apps: [Int: HistoryBaseline.App] = [:]
        for app in roster.apps where app.id != hostTrackId && apps[app.id] == nil { apps[app.id] = app.state }
        guard let baseline, baseline.artistId == roster.artistId else {
            var fresh = HistoryBaseline(
                artistId: roster.artistId, at: roster.fetchedAt, apps: apps, lastSerial: lastSerial)
            fresh.artistName = roster.artistName
            fresh.releases = releases(roster, after: nil)
            return ([], fresh)
        }
        var entries: [HistoryEntry] = []
        func entry(_ kind: HistoryEntry.Kind, _ id: Int, _ app: HistoryBaseline.App) -> HistoryEntry {
            HistoryEntry(
                serial: lastSerial + entries.count + 1, at: roster.fetchedAt, kind: kind, id: id, name: app.name,
                platform: app.platform, storeUrl: app.storeUrl, iconUrl: app.iconUrl)
        }
        var seen = Set<Int>()
        for app in roster.apps where app.id != hostTrackId && seen.insert(app.id).inserted {
            let now = app.state
            guard let before = baseline.apps[app.id] else {
                var added = entry(.added, app.id, now)
                added.version = now.version
                added.formattedPrice = now.formattedPrice
                added.price = now.price
                entries.append(added)
                continue
            }
            if let version = now.version, version != before.version {
                var updated = entry(.updated, app.id, now)
                updated.version = version
                updated.versionDate = app.versionDate
                updated.releaseNotes = app.releaseNotes
                entries.append(updated)
            }
            if now.price != before.price {
                var price = entry(.price, app.id, now)
                price.formattedPrice = now.formattedPrice
                price.previousFormattedPrice = before.formattedPrice
                price.price = now.price
                entries.append(price)
            }
        }
        for (id, before) in baseline.apps.sorted(by: { $0.key < $1.key }) where id != hostTrackId {
            guard apps[id] == nil else { continue }
            if roster.droppedIds.contains(id) {
                apps[id] = before
            } else {
                entries.append(entry(.removed, id, before))
            }
        }
        let at = entries.isEmpty ? baseline.at : roster.fetchedAt
        var next = HistoryBaseline(
            artistId: roster.artistId, at: at, apps: apps, lastSerial: lastSerial + entries.count)
        next.artistName = roster.artistName ?? baseline.artistName
        next.releases = releases(roster, after: baseline.releases)
        return (entries, next)
    }

    /// Each app's current release in `roster` (the host's too), empty ones left out: an app whose row gave neither a
    /// date nor notes (a roster without its raw body) or that was dropped as unusable keeps its earlier release while
    /// its version is the same, so a page never loses its notes to a roster that could not tell them.
    static func releases(_ roster: RosterObservation, after earlier: [Int: HistoryBaseline.Release]?)
        -> [Int: HistoryBaseline.Release]
    {
        var releases: [Int: HistoryBaseline.Release] = [:]
        for app in roster.apps where releases[app.id] == nil {
            if app.versionDate != nil || app.releaseNotes != nil {
                // A date that is no real one, or lies over a day after the fetch, is dropped as an entry's is.
                releases[app.id] = HistoryBaseline.Release(
                    version: app.state.version, versionDate: app.versionDate, releaseNotes: app.releaseNotes
                ).checked(now: roster.fetchedAt)
            } else if let kept = earlier?[app.id], kept.version == app.state.version {
                releases[app.id] = kept
            }
        }
        for id in roster.droppedIds where releases[id] == nil { releases[id] = earlier?[id] }
        return releases
    }
}
