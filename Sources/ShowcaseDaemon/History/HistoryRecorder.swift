import DirectorySafety
import FoundationEssentials
import Locking
import ShowcaseCore
import ShowcaseHistory

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The daemon's side of the change history (SPEC §15): records each successful roster for every host of its
/// developer, keeps what was read in memory, and tells the export when a history grew.
///
/// Recording runs on the refresh that fetched the roster, after its cache write — never on the socket loop, so
/// `Get`'s hot path never waits on a history file. Reads (`Roster.Changes`, the export's feeds) come from the
/// copy kept here, filled from disk the first time a history is asked for and replaced by each record, so an
/// export pass over every storefront reads no file for a history that did not change. Every entry is checked
/// (SPEC §20) when that copy is filled, under the `lookup.artwork_hosts` of the time; a reload that changes them
/// fills it again.
final class HistoryRecorder: Sendable {
    /// The files under `state.directory`.
    let store: HistoryStore
    private let log: DaemonLog
    private let readings = Lock<[HistoryKey: (reading: HistoryReading, rules: URLRules)]>([:])
    /// What was found wrong (a hostile or unreadable file, entries refused), so each is logged once, not on every
    /// read.
    private let reported = Lock<Set<String>>([])
    /// Logs set aside while this daemon runs: Status and Health report each while its file is there.
    private let setAside = Lock<[HistoryKey: HistorySetAside]>([:])
    private let grew = Lock<(@Sendable () -> Void)?>(nil)

    /// A recorder over `<directory>/history`.
    init(directory: String, log: DaemonLog, clock: any ShowcaseClock) {
        store = HistoryStore(directory: directory, now: { clock.now })
        self.log = log
    }

    /// Calls `handler` after a record appended entries or started a baseline (the export then rewrites the feeds).
    func onGrowth(_ handler: @escaping @Sendable () -> Void) { grew.withLock { $0 = handler } }

    /// Records `roster`, fetched for `edition`, in the history of each of `hosts` (bundle id and the host app's
    /// own trackId, which is never recorded). `keep` is `history.keep`; `urlRules` judge what is read back.
    func record(
        _ roster: Roster, edition: StorefrontEdition, hosts: [(bundleID: String, trackId: Int?)], keep: Int,
        urlRules: URLRules
    ) {
        guard !hosts.isEmpty else { return }
        let observation = RosterObservation(roster)
        var appended = false
        for host in hosts {
            let key = HistoryKey(host: host.bundleID, edition: edition)
            let result = store.record(observation, for: key, hostTrackId: host.trackId, keep: keep)
            if let error = result.error {
                report(error, key)
            }
            if let aside = result.setAside { noteSetAside(aside) }
            // A new baseline moves an empty feed's `updated`: the export hears of it like of new entries.
            if result.baseline != .unchanged, result.error == nil { appended = true }
            if result.baseline == .transferred {
                log.info(
                    "the history of \(key) starts a new baseline: the host's developer changed",
                    fields: [.host: host.bundleID, .storefront: edition.storefront.code])
            }
            if !result.entries.isEmpty {
                appended = true
                log.info(
                    "recorded \(result.entries.count) change\(result.entries.count == 1 ? "" : "s") in \(key)",
                    fields: [.host: host.bundleID, .storefront: edition.storefront.code])
            }
            // Read back now, so the next read is answered from memory with what is on disk.
            let reading = load(key, keep: keep, urlRules: urlRules)
            readings.withLock { $0[key] = reading.map { ($0, urlRules) } }
        }
        if appended { grew.withLock { $0 }?() }
    }

    /// The history of `key`: the newest `keep` entries (oldest first) that `urlRules` allow, the newest serial,
    /// the baseline's time. Something planted where its files belong is logged once and reads as an empty history.
    func reading(_ key: HistoryKey, keep: Int, urlRules: URLRules) -> HistoryReading {
        if let kept = readings.withLock({ $0[key] }), kept.rules == urlRules {
            var reading = kept.reading
            // A reload that lowered history.keep shows fewer at once; the file follows at the next record.
            if reading.entries.count > keep { reading.entries = Array(reading.entries.suffix(keep)) }
            return reading
        }
        guard let reading = load(key, keep: keep, urlRules: urlRules) else {
            return HistoryReading(entries: [], latest: 0, baselineAt: nil)
        }
        readings.withLock { $0[key] = (reading, urlRules) }
        return reading
    }

    /// The logs set aside while this daemon runs whose file is still there (removing it acknowledges the report),
    /// oldest first: Status's and Health's `history` problems.
    func problems() -> [HistorySetAside] {
        let all = setAside.withLock { Array($0.values) }
        return all.filter { aside in
            var info = stat()
            return lstat(aside.file, &info) == 0
        }.sorted { $0.at < $1.at }
    }

    /// Reads `key` from disk, logging once what was wrong with it; nil when its files cannot be read.
    private func load(_ key: HistoryKey, keep: Int, urlRules: URLRules) -> HistoryReading? {
        let reading: HistoryReading
        switch store.read(key, keep: keep, urlRules: urlRules) {
        case .success(let read): reading = read
        case .failure(let error):
            report(error, key)
            return nil
        }
        if let aside = reading.setAside { noteSetAside(aside) }
        let fields: [DaemonLog.Field: String] = [.host: key.host, .storefront: key.edition.storefront.code]
        if let refusal = reading.refusal, once("\(key) refused \(reading.refusedEntries) \(refusal)") {
            let count = reading.refusedEntries
            log.warning(
                "the change history of \(key) holds \(count) entr\(count == 1 ? "y" : "ies") with a URL §5 refuses "
                    + "(\(refusal)): left out of Changes and the feeds", fields: fields)
        }
        if reading.skippedLines > 0, once("\(key) skipped \(reading.skippedLines)") {
            log.warning(
                "the change history of \(key) holds \(reading.skippedLines) line\(reading.skippedLines == 1 ? "" : "s") "
                    + "that are no entry (foreign, over 8 KiB, or a time out of range): skipped", fields: fields)
        }
        return reading
    }

    private func noteSetAside(_ aside: HistorySetAside) {
        setAside.withLock { $0[aside.key] = aside }
        readings.withLock { $0[aside.key] = nil }
        log.warning(
            aside.message,
            fields: [.host: aside.key.host, .storefront: aside.key.edition.storefront.code, .error: aside.reason])
    }

    private func once(_ what: String) -> Bool { reported.withLock { $0.insert(what).inserted } }

    private func report(_ error: DirectoryError, _ key: HistoryKey) {
        guard once(error.path) else { return }
        log.warning(
            "the change history of \(key) is not kept: \(error.message)",
            fields: [.host: key.host, .storefront: key.edition.storefront.code, .error: error.message])
    }
}
