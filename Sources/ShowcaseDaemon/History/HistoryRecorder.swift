import DirectorySafety
import FoundationEssentials
import ShowcaseCore
import ShowcaseHistory

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The daemon's side of the change history (SPEC §15), an effect executor in ``Refresher``'s shape: it records each
/// successful roster for every host of its developer and reads each history the first time it is asked for, doing
/// the file I/O outside the owner's lock, and hands what it read to the state (``HistoryBook``). It keeps nothing of
/// its own.
///
/// Recording runs on the refresh that fetched the roster, after its cache write — never on the socket loop, so
/// `Get`'s hot path never waits on a history file. Reads (`Roster.Changes`, the export's feeds) come from the
/// reading the state keeps, filled from disk the first time a history is asked for and replaced by each record, so
/// an export pass over every storefront reads no file for a history that did not change. Every entry is checked
/// (SPEC §20) when that reading is filled, under the `lookup.artwork_hosts` of the time; a reload that changes them
/// fills it again. A record that grew a history asks for an export through its transition
/// (``DaemonState/historyRecorded(_:urlRules:)``); what was found wrong with a file is logged once
/// (``DaemonLog/once(_:)``).
final class HistoryRecorder: Sendable {
    /// The files under `state.directory`.
    let store: HistoryStore
    private let state: StateOwner
    private let log: DaemonLog

    /// A recorder over `<directory>/history`, keeping what it reads in `state`, dating set-aside logs by its clock.
    init(directory: String, state: StateOwner, log: DaemonLog) {
        let clock = state.clock
        store = HistoryStore(directory: directory, now: { clock.now })
        self.state = state
        self.log = log
    }

    /// Records `roster`, fetched for `edition`, in the history of each of `hosts` (bundle id and the host app's
    /// own trackId, which is never recorded). `keep` is `history.keep`; `urlRules` judge what is read back.
    func record(
        _ roster: Roster, edition: StorefrontEdition, hosts: [(bundleID: String, trackId: Int?)], keep: Int,
        urlRules: URLRules
    ) {
        guard !hosts.isEmpty else { return }
        let observation = RosterObservation(roster)
        var records: [HistoryBook.Record] = []
        for host in hosts {
            let key = HistoryKey(host: host.bundleID, edition: edition)
            let result = store.record(observation, for: key, hostTrackId: host.trackId, keep: keep)
            if let error = result.error {
                report(error, key)
            }
            if let aside = result.setAside { warn(aside) }
            if result.baseline == .transferred {
                log.info(
                    "the history of \(key) starts a new baseline: the host's developer changed",
                    fields: [.host: host.bundleID, .storefront: edition.storefront.code])
            }
            if !result.entries.isEmpty {
                log.info(
                    "recorded \(result.entries.count) change\(result.entries.count == 1 ? "" : "s") in \(key)",
                    fields: [.host: host.bundleID, .storefront: edition.storefront.code])
            }
            // Read back now, so the next read is answered from memory with what is on disk. A new baseline moves an
            // empty feed's `updated`: the export hears of it like of new entries.
            records.append(
                HistoryBook.Record(
                    key: key, setAside: result.setAside, reading: load(key, keep: keep, urlRules: urlRules),
                    grew: !result.entries.isEmpty || (result.baseline != .unchanged && result.error == nil)))
        }
        state.update { state, _ in state.historyRecorded(records, urlRules: urlRules) }
    }

    /// The history of `key`: the newest `keep` entries (oldest first) that `urlRules` allow, the newest serial,
    /// the baseline's time. Something planted where its files belong is logged once and reads as an empty history.
    func reading(_ key: HistoryKey, keep: Int, urlRules: URLRules) -> HistoryReading {
        if let kept = state.read({ $0.history.reading(key, keep: keep, rules: urlRules) }) { return kept }
        let loaded = load(key, keep: keep, urlRules: urlRules)
        let reading = state.update { state, _ in state.historyRead(key, loaded, keep: keep, urlRules: urlRules) }
        return reading ?? HistoryReading(entries: [], latest: 0, baselineAt: nil)
    }

    /// The logs set aside while this daemon runs whose file is still there (removing it acknowledges the report),
    /// oldest first: Status's and Health's `history` problems.
    func problems() -> [HistorySetAside] {
        state.read { $0.history.problems }.filter { aside in
            var info = stat()
            return lstat(aside.file, &info) == 0
        }
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
        if let aside = reading.setAside { warn(aside) }
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

    /// Logs a set-aside log; the transition that hands it to the state notes it for Status and Health.
    private func warn(_ aside: HistorySetAside) {
        log.warning(
            aside.message,
            fields: [.host: aside.key.host, .storefront: aside.key.edition.storefront.code, .error: aside.reason])
    }

    /// Whether `what` is found wrong for the first time this run (``DaemonLog/once(_:)``).
    private func once(_ what: String) -> Bool { log.once("history \(what)") }

    private func report(_ error: DirectoryError, _ key: HistoryKey) {
        guard once(error.path) else { return }
        log.warning(
            "the change history of \(key) is not kept: \(error.message)",
            fields: [.host: key.host, .storefront: key.edition.storefront.code, .error: error.message])
    }
}
