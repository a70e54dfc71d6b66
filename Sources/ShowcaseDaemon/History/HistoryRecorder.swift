import DirectorySafety
import FoundationEssentials
import Locking
import ShowcaseCore
import ShowcaseHistory

/// The daemon's side of the change history (SPEC §15): records each successful roster for every host of its
/// developer, keeps what was read in memory, and tells the export when a history grew.
///
/// Recording runs on the refresh that fetched the roster, after its cache write — never on the socket loop, so
/// `Get`'s hot path never waits on a history file. Reads (`Roster.Changes`, the export's feeds) come from the
/// copy kept here, filled from disk the first time a history is asked for and replaced by each record, so an
/// export pass over every storefront reads no file for a history that did not change.
final class HistoryRecorder: Sendable {
    /// The files under `state.directory`.
    let store: HistoryStore
    private let log: DaemonLog
    private let readings = Lock<[HistoryKey: HistoryReading]>([:])
    /// Histories whose files were found hostile or unreadable, so each is logged once, not on every read.
    private let reported = Lock<Set<String>>([])
    private let grew = Lock<(@Sendable () -> Void)?>(nil)

    /// A recorder over `<directory>/history`.
    init(directory: String, log: DaemonLog) {
        store = HistoryStore(directory: directory)
        self.log = log
    }

    /// Calls `handler` after a record appended entries or started a baseline (the export then rewrites the feeds).
    func onGrowth(_ handler: @escaping @Sendable () -> Void) { grew.withLock { $0 = handler } }

    /// Records `roster`, fetched for `edition`, in the history of each of `hosts` (bundle id and the host app's
    /// own trackId, which is never recorded). `keep` is `history.keep`.
    func record(_ roster: Roster, edition: StorefrontEdition, hosts: [(bundleID: String, trackId: Int?)], keep: Int) {
        guard !hosts.isEmpty else { return }
        let observation = RosterObservation(roster)
        var appended = false
        for host in hosts {
            let key = HistoryKey(host: host.bundleID, edition: edition)
            let result = store.record(observation, for: key, hostTrackId: host.trackId, keep: keep)
            if let error = result.error {
                report(error, key)
            }
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
            let reading = try? store.read(key, keep: keep).get()
            readings.withLock { $0[key] = reading }
        }
        if appended { grew.withLock { $0 }?() }
    }

    /// The history of `key`: the newest `keep` entries (oldest first), the newest serial, the baseline's time.
    /// Something planted where its files belong is logged once and reads as an empty history.
    func reading(_ key: HistoryKey, keep: Int) -> HistoryReading {
        if var kept = readings.withLock({ $0[key] }) {
            // A reload that lowered history.keep shows fewer at once; the file follows at the next record.
            if kept.entries.count > keep { kept.entries = Array(kept.entries.suffix(keep)) }
            return kept
        }
        switch store.read(key, keep: keep) {
        case .success(let reading):
            readings.withLock { $0[key] = reading }
            return reading
        case .failure(let error):
            report(error, key)
            return HistoryReading(entries: [], latest: 0, baselineAt: nil)
        }
    }

    private func report(_ error: DirectoryError, _ key: HistoryKey) {
        let first = reported.withLock { $0.insert(error.path).inserted }
        guard first else { return }
        log.warning(
            "the change history of \(key) is not kept: \(error.message)",
            fields: [.host: key.host, .storefront: key.edition.storefront.code, .error: error.message])
    }
}
