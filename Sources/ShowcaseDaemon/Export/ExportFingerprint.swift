import FoundationEssentials

/// What one exported roster's files are made from, by name: the writer reuses the last pass's files for a roster
/// whose fingerprint is the one it remembers (``ExportRoster/fingerprint``), so each input that can change a file
/// must be here — and each one here is named, not a position in a list.
///
/// The writer compares ``values`` (ShowcaseExport knows no daemon types); with mirrored icons the icon side of the
/// pass appends the icon index's stamp (``Exporter/export(_:with:remembering:icons:)``).
struct ExportFingerprint: Sendable, Equatable {
    /// The roster record's revision (negative for an identity failure).
    var revision: Int
    /// When the roster was fetched: a new fetch is a new `fetchedAt` in the documents.
    var fetchedAt: Date
    /// How many rows upstream gave.
    var resultCount: Int
    /// The host's developer.
    var artistId: Int
    /// The host app's own id (left out of its roster).
    var hostAppId: Int
    /// The host's settings epoch (``ExportBook/epochs``): its overlay, the attribution and the artwork rules.
    var settingsEpoch: Int
    /// The history's newest serial (-1 without one): the feeds' and the site's entries.
    var historyLatest: Int
    /// When the history's baseline was taken (nil without one): an empty feed's `updated`.
    var historyBaseline: Date?

    /// The fingerprint as the writer compares it.
    var values: [Int] {
        [
            revision, Self.milliseconds(fetchedAt), resultCount, artistId, hostAppId, settingsEpoch, historyLatest,
            historyBaseline.map(Self.milliseconds) ?? 0,
        ]
    }

    /// `date` in whole milliseconds since 1970, clamped: a time read from a cache file or a history is never
    /// trusted to fit an `Int` (converting one that does not would trap).
    static func milliseconds(_ date: Date) -> Int {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard value.isFinite else { return value.isNaN ? 0 : value > 0 ? .max : .min }
        return value >= 9.2e18 ? .max : value <= -9.2e18 ? .min : Int(value)
    }
}
