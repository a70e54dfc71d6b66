import DirectorySafety
import FoundationEssentials
import Locking

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The change history on disk: per ``HistoryKey`` an append-only log of entries and the baseline the next roster
/// is compared with, under `<state.directory>/history/`.
///
/// Invariants, each a test's name:
/// - An entry is one line appended with one `write(2)` (``TrustedDirectory/append(_:bytes:truncatingTo:mode:)``):
///   a `kill -9` mid-append leaves at most a cut last line, which reads ignore and the next append cuts off.
/// - The log is written before the baseline, and the baseline names the last serial it reflects: after a crash in
///   between, the log's newer entries are applied to the baseline on the next record, never detected twice.
/// - Serials increase by one per entry and never repeat: the next one is past both the log's newest and the
///   baseline's, and compaction (an atomic rewrite keeping the newest `keep` once the log holds `keep` plus a
///   slack of a quarter more) keeps the newest.
/// - Nothing in the tree is followed: every file is reached through its directory's descriptor without following
///   a link; a symlink, FIFO, device or hard link where a log or baseline belongs is reported and left alone
///   (that history records nothing until it is removed).
///
/// Records are serialized by one lock (a refresh records once per host and roster, rarely); reads take no lock:
/// they see the log before or after an append or a rename, never a mix, and a cut line is not an entry.
public final class HistoryStore: Sendable {
    /// `state.directory`, as configured.
    public let directory: String
    private let writing = Lock(())

    /// The largest log file read: `history.keep` is at most 10 000 entries of a few KiB.
    static let readLimit = 256 << 20

    /// A store under `directory` (made when the first entry or baseline is written).
    public init(directory: String) { self.directory = directory }

    /// The history directory of `host`, made (mode 0700) when `creating`.
    private func folder(_ host: String, creating: Bool) throws(DirectoryError) -> TrustedDirectory {
        let root = try TrustedDirectory.open(directory, creating: creating ? 0o755 : nil, applyingUmask: true)
        let history = try root.subdirectory("history", creating: creating ? 0o700 : nil)
        return try history.subdirectory(host, creating: creating ? 0o700 : nil)
    }

    // MARK: Recording

    /// Compares `roster` with the baseline of `key` (the host app `hostTrackId` left out), appends the entries it
    /// brings and keeps the new baseline. `keep` is `history.keep`.
    public func record(_ roster: RosterObservation, for key: HistoryKey, hostTrackId: Int?, keep: Int)
        -> HistoryRecording
    {
        writing.withLock { _ in
            do throws(DirectoryError) {
                return try recordLocked(roster, for: key, hostTrackId: hostTrackId, keep: max(1, keep))
            } catch {
                return HistoryRecording(entries: [], baseline: .unchanged, error: error)
            }
        }
    }

    private func recordLocked(_ roster: RosterObservation, for key: HistoryKey, hostTrackId: Int?, keep: Int)
        throws(DirectoryError) -> HistoryRecording
    {
        let folder = try self.folder(key.host, creating: true)
        let log = try Self.readLog(key, in: folder)
        var previous = try Self.readBaseline(key, in: folder)
        // Entries the log holds past the baseline were appended just before a crash: the baseline catches up.
        if let stale = previous, log.lastSerial > stale.lastSerial {
            previous = stale.applying(log.entries.filter { $0.serial > stale.lastSerial })
        }
        let (entries, baseline) = HistoryDiff.compare(
            roster, with: previous, hostTrackId: hostTrackId, firstSerial: log.lastSerial + 1)
        if !entries.isEmpty {
            var lines = Data()
            for entry in entries { lines.append(entry.line) }
            if let failure = folder.append(key.logName, bytes: lines, truncatingTo: log.validLength, mode: 0o600) {
                throw failure
            }
            let total = log.entries.count + entries.count
            if total > keep + max(4, keep / 4) {
                let kept = HistoryLog(entries: Array((log.entries + entries).suffix(keep)))
                if let failure = folder.replace(key.logName, bytes: kept.encoded, mode: 0o600) { throw failure }
            }
        }
        let outcome: HistoryRecording.BaselineChange =
            if let previous { previous.artistId != baseline.artistId ? .transferred : .unchanged } else { .started }
        if baseline != previous, let failure = folder.replace(key.baselineName, bytes: baseline.encoded, mode: 0o600) {
            return HistoryRecording(entries: entries, baseline: outcome, error: failure)
        }
        return HistoryRecording(entries: entries, baseline: outcome, error: nil)
    }

    // MARK: Reading

    /// The newest `keep` entries of `key` (oldest first), the newest serial recorded, and the baseline's time.
    /// A history never written reads as empty; something planted where its files belong is an error.
    public func read(_ key: HistoryKey, keep: Int) -> Result<HistoryReading, DirectoryError> {
        do throws(DirectoryError) {
            let folder: TrustedDirectory
            do throws(DirectoryError) { folder = try self.folder(key.host, creating: false) } catch let error
                where error.code == .missing || error.code == .system(ENOENT)
            {
                return .success(HistoryReading(entries: [], latest: 0, baselineAt: nil))
            }
            let log = try Self.readLog(key, in: folder)
            let baseline = try Self.readBaseline(key, in: folder)
            let latest = max(log.lastSerial, baseline?.lastSerial ?? 0)
            var reading = HistoryReading(
                entries: Array(log.entries.suffix(max(1, keep))), latest: latest, baselineAt: baseline?.at)
            reading.artistName = baseline?.artistName
            return .success(reading)
        } catch {
            return .failure(error)
        }
    }

    private static func readLog(_ key: HistoryKey, in folder: TrustedDirectory) throws(DirectoryError) -> HistoryLog {
        switch folder.read(key.logName, limit: readLimit) {
        case .success(let contents):
            try ownFile(contents, folder.child(key.logName))
            return HistoryLog(parsing: contents.bytes)
        case .failure(let error) where error.code == .missing: return HistoryLog()
        case .failure(let error): throw error
        }
    }

    private static func readBaseline(_ key: HistoryKey, in folder: TrustedDirectory) throws(DirectoryError)
        -> HistoryBaseline?
    {
        switch folder.read(key.baselineName, limit: readLimit) {
        case .success(let contents):
            try ownFile(contents, folder.child(key.baselineName))
            // A baseline that does not decode (foreign, an older format) is none: the next roster becomes it.
            return HistoryBaseline(encoded: contents.bytes)
        case .failure(let error) where error.code == .missing: return nil
        case .failure(let error): throw error
        }
    }

    /// A file with another name elsewhere (a hard link) is someone else's: never read as history, never appended to.
    private static func ownFile(_ contents: FileContents, _ path: String) throws(DirectoryError) {
        guard contents.entry.links == 1 else {
            throw DirectoryError(
                .unexpected(.other), path: path,
                "\(path) is a file with another name (a hard link) where showcased expects its own; it is left alone")
        }
    }
}

/// What one ``HistoryStore/record(_:for:hostTrackId:keep:)`` did.
public struct HistoryRecording: Sendable {
    /// How the baseline moved.
    public enum BaselineChange: Sendable, Equatable {
        /// There was none: this roster became it.
        case started
        /// The developer changed (a transfer): this roster became it.
        case transferred
        /// Compared and brought up to date.
        case unchanged
    }

    /// The entries appended, in serial order.
    public var entries: [HistoryEntry]
    /// How the baseline moved.
    public var baseline: BaselineChange
    /// What could not be read or written (nothing was appended when the log or its baseline could not be read).
    public var error: DirectoryError?

    /// An outcome with every field given.
    public init(entries: [HistoryEntry], baseline: BaselineChange, error: DirectoryError?) {
        self.entries = entries
        self.baseline = baseline
        self.error = error
    }
}

/// One history as read.
public struct HistoryReading: Sendable {
    /// The newest `history.keep` entries, oldest first.
    public var entries: [HistoryEntry]
    /// The newest serial recorded (0 when none).
    public var latest: Int
    /// When the baseline's roster was fetched (or its newest change), nil before the first roster.
    public var baselineAt: Date?
    /// The developer's name the baseline keeps (the feeds' author).
    public var artistName: String?

    /// A reading with every field given.
    public init(entries: [HistoryEntry], latest: Int, baselineAt: Date?) {
        self.entries = entries
        self.latest = latest
        self.baselineAt = baselineAt
    }
}
