import ShowcaseCore
import ShowcaseHistory

/// The change histories' transitions (``HistoryBook``): the ``HistoryRecorder`` reads and writes the files outside
/// the lock and hands what it read here.
extension DaemonState {
    /// A refresh recorded its roster in the history of every host of its developer (`records`, read back under
    /// `urlRules`): each log set aside is noted, each reading replaces the one kept. When any history grew (entries
    /// appended, a baseline started), the export runs: a version or price change is no new roster revision, so
    /// nothing else would rewrite the feeds.
    mutating func historyRecorded(_ records: [HistoryBook.Record], urlRules: URLRules) -> StateChange {
        for record in records {
            if let aside = record.setAside { history.note(aside) }
            if let aside = record.reading?.setAside { history.note(aside) }
            history.keep(record.reading, of: record.key, rules: urlRules)
        }
        return records.contains(where: \.grew) ? historyGrew() : .none
    }

    /// `reading` of `key` was read from disk under `urlRules` to answer a read that found none kept (nil: its files
    /// could not be read). Returns what the read answers with, its newest `keep` entries: the reading kept if a
    /// record kept one under the same rules meanwhile (it is newer than this read's), else this one, which is kept
    /// from now on. A log this read set aside is noted, and its reading replaces the one kept.
    mutating func historyRead(_ key: HistoryKey, _ reading: HistoryReading?, keep: Int, urlRules: URLRules)
        -> (HistoryReading?, StateChange)
    {
        guard let reading else { return (history.reading(key, keep: keep, rules: urlRules), .none) }
        if let aside = reading.setAside {
            history.note(aside)
        } else if let kept = history.reading(key, keep: keep, rules: urlRules) {
            return (kept, .none)
        }
        history.keep(reading, of: key, rules: urlRules)
        return (reading, .none)
    }
}
