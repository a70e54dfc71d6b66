import ShowcaseCore
import ShowcaseHistory

/// What the daemon keeps of the change histories (SPEC §15), as a part of ``DaemonState``: each history's last
/// reading, with the URL rules its entries were checked under, and the logs set aside while this daemon runs.
///
/// A reading is filled from disk the first time a history is asked for and replaced by each record, so `Changes`
/// and an export pass over every storefront read no file for a history that did not change. It answers only under
/// the `lookup.artwork_hosts` it was read under: a reload that changes them fills it again (SPEC §20). The files
/// themselves are the ``HistoryRecorder``'s; this value does no I/O.
struct HistoryBook: Sendable {
    /// One history as last read.
    struct Kept: Sendable {
        /// What was read.
        var reading: HistoryReading
        /// The URL rules its entries were checked under.
        var rules: URLRules
    }

    /// What one host's record did, for ``DaemonState/historyRecorded(_:urlRules:)``.
    struct Record: Sendable {
        /// Whose history.
        var key: HistoryKey
        /// The log set aside before the roster was compared, if one was.
        var setAside: HistorySetAside?
        /// The history read back after the record; nil when its files could not be read.
        var reading: HistoryReading?
        /// Entries were appended or a baseline started: the feeds change.
        var grew: Bool
    }

    /// Each history's last reading.
    private(set) var readings: [HistoryKey: Kept] = [:]
    /// The logs set aside while this daemon runs, the latest per history.
    private(set) var setAside: [HistoryKey: HistorySetAside] = [:]

    /// The reading of `key` kept under `rules`, its newest `keep` entries (a reload that lowered `history.keep`
    /// shows fewer at once; the file follows at the next record); nil when none is kept under those rules.
    func reading(_ key: HistoryKey, keep: Int, rules: URLRules) -> HistoryReading? {
        guard var reading = readings[key].flatMap({ $0.rules == rules ? $0.reading : nil }) else { return nil }
        if reading.entries.count > keep { reading.entries = Array(reading.entries.suffix(keep)) }
        return reading
    }

    /// The logs set aside, oldest first.
    var problems: [HistorySetAside] { setAside.values.sorted { $0.at < $1.at } }

    /// Keeps `reading` of `key`, read under `rules`; nil forgets the one kept (its files could not be read).
    mutating func keep(_ reading: HistoryReading?, of key: HistoryKey, rules: URLRules) {
        readings[key] = reading.map { Kept(reading: $0, rules: rules) }
    }

    /// Notes a log set aside: reported until its file is removed; the reading of what it held is forgotten.
    mutating func note(_ aside: HistorySetAside) {
        setAside[aside.key] = aside
        readings[aside.key] = nil
    }
}
