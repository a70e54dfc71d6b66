import DirectorySafety
import FoundationEssentials
import Locking
import ShowcaseCore

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
/// - What is read is untrusted (SPEC §20): a log larger than ``maximumLogBytes(keep:)`` or with a serial out of
///   1…2⁵³ or out of order is set aside (renamed `<name>.bad-<time>`, with its baseline) and a placeholder
///   baseline keeps the serials going, so `latest` never goes backwards and nothing traps; a line over 8 KiB or
///   with a time RFC 3339 cannot write is skipped; an entry whose URLs fail §5's rules is never shown.
///
/// Records are serialized by one lock (a refresh records once per host and roster, rarely); reads take no lock
/// (they see the log before or after an append or a rename, never a mix, and a cut line is not an entry) unless
/// they find a log to set aside.
public final class HistoryStore: Sendable {
    /// `state.directory`, as configured.
    public let directory: String
    private let writing = Lock(())
    /// When a log is set aside (its new name and the placeholder baseline's time).
    private let now: @Sendable () -> Date

    /// A store under `directory` (made when the first entry or baseline is written); `now` stamps a log set aside.
    public init(directory: String, now: @escaping @Sendable () -> Date = { Date() }) {
        self.directory = directory
        self.now = now
    }

    /// The most bytes a log kept at `keep` entries can take: `keep` plus the compaction slack, each at most
    /// ``HistoryEntry/maximumLineBytes``, and a line cut by a crash. A larger file was not written by the daemon:
    /// it is set aside unread (SPEC §20).
    public static func maximumLogBytes(keep: Int) -> Int {
        let keep = min(max(1, keep), 1 << 20)
        return (keep + compactionSlack(keep) + 1) * HistoryEntry.maximumLineBytes
    }

    /// How many entries past `keep` a log holds before it is compacted.
    static func compactionSlack(_ keep: Int) -> Int { max(4, keep / 4) }

    /// The largest baseline read: 200 apps of a few KiB each, with room to spare.
    static let baselineReadLimit = 16 << 20

    /// The history directory of `host`, made (mode 0700) when `creating`.
    private func folder(_ host: String, creating: Bool) throws(DirectoryError) -> TrustedDirectory {
        let root = try TrustedDirectory.open(directory, creating: creating ? 0o755 : nil, applyingUmask: true)
        let history = try root.subdirectory("history", creating: creating ? 0o700 : nil)
        return try history.subdirectory(host, creating: creating ? 0o700 : nil)
    }

    // MARK: Recording

    /// Compares `roster` with the baseline of `key` (the host app `hostTrackId` left out), appends the entries it
    /// brings (each ``HistoryEntry/fitted()``) and keeps the new baseline. `keep` is `history.keep`. A log that
    /// cannot be kept is set aside first, and this roster starts a new baseline.
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
        let loaded = try loadLocked(key, in: folder, keep: keep)
        var (log, previous, setAside) = (loaded.log, loaded.baseline, loaded.setAside)
        // Entries the log holds past the baseline were appended just before a crash: the baseline catches up.
        if let stale = previous, log.lastSerial > stale.lastSerial {
            previous = stale.applying(log.entries.filter { $0.serial > stale.lastSerial })
        }
        // 2⁵³ serials used up (a planted baseline near the end): set aside, and start again from 1.
        if max(log.lastSerial, previous?.lastSerial ?? 0) > HistoryEntry.maximumSerial - 1000 {
            setAside = try setAsideLocked(
                key, in: folder, reason: "its serials reached 2^53; serials start again from 1", floor: 0)
            log = HistoryLog()
            previous = .placeholder(lastSerial: 0, at: now())
        }
        let (compared, baseline) = HistoryDiff.compare(
            roster, with: previous, hostTrackId: hostTrackId, firstSerial: log.lastSerial + 1)
        // An entry too large even with its texts cut keeps its serial unused rather than break the sequence.
        let entries = compared.compactMap { $0.fitted() }
        if !entries.isEmpty {
            var lines = Data()
            for entry in entries { lines.append(entry.line) }
            if let failure = folder.append(key.logName, bytes: lines, truncatingTo: log.validLength, mode: 0o600) {
                throw failure
            }
            let total = log.entries.count + entries.count
            if total > keep + Self.compactionSlack(keep) {
                let kept = HistoryLog(entries: Array((log.entries + entries).suffix(keep)))
                if let failure = folder.replace(key.logName, bytes: kept.encoded, mode: 0o600) { throw failure }
            }
        }
        let outcome: HistoryRecording.BaselineChange =
            if let previous, !previous.isPlaceholder {
                previous.artistId != baseline.artistId ? .transferred : .unchanged
            } else {
                .started
            }
        var recording = HistoryRecording(entries: entries, baseline: outcome, error: nil)
        recording.setAside = setAside
        if baseline != previous, let failure = folder.replace(key.baselineName, bytes: baseline.encoded, mode: 0o600) {
            recording.error = failure
        }
        return recording
    }

    // MARK: Reading

    /// The newest `keep` entries of `key` (oldest first) that `urlRules` allow, the newest serial recorded, and
    /// the baseline's time. A history never written reads as empty; something planted where its files belong is
    /// an error; a log that cannot be kept is set aside (``HistoryReading/setAside``) and reads as empty, its
    /// `latest` kept. Every entry is checked here, once per read of the file, not per reply.
    public func read(_ key: HistoryKey, keep: Int, urlRules: URLRules = .standard)
        -> Result<HistoryReading, DirectoryError>
    {
        do throws(DirectoryError) {
            let folder: TrustedDirectory
            do throws(DirectoryError) { folder = try self.folder(key.host, creating: false) } catch let error
                where error.code == .missing || error.code == .system(ENOENT)
            {
                return .success(HistoryReading(entries: [], latest: 0, baselineAt: nil))
            }
            var loaded = try Self.load(key, in: folder, keep: keep)
            if loaded.problem != nil {
                // Set aside under the writers' lock, judging the files again there: a record may have just
                // replaced them.
                loaded = try writing.withLock { _ throws(DirectoryError) in
                    try loadLocked(key, in: folder, keep: keep)
                }
            }
            let (log, baseline, setAside) = (loaded.log, loaded.baseline, loaded.setAside)
            let latest = max(log.lastSerial, baseline?.lastSerial ?? 0)
            var refused = 0
            var refusal: String?
            let shown = log.entries.suffix(max(1, keep)).filter { entry in
                guard let reason = entry.refusal(under: urlRules) else { return true }
                refused += 1
                refusal = refusal ?? "serial \(entry.serial): \(reason)"
                return false
            }
            var reading = HistoryReading(entries: shown, latest: latest, baselineAt: baseline?.at)
            reading.artistName = baseline?.artistName
            let now = now()
            reading.releases = (baseline?.releases ?? [:]).mapValues { $0.checked(now: now) }
            reading.skippedLines = log.skippedLines
            reading.refusedEntries = refused
            reading.refusal = refusal
            reading.setAside = setAside
            return .success(reading)
        } catch {
            return .failure(error)
        }
    }

    /// A log and baseline as read, and what is wrong with them when they cannot be kept.
    private struct Loaded {
        var log: HistoryLog
        var baseline: HistoryBaseline?
        var setAside: HistorySetAside?
        /// Why the log must be set aside (too large, a serial out of range or order); nil when it can be kept.
        var problem: String?
    }

    /// The files of `key`, judged but left as they are.
    private static func load(_ key: HistoryKey, in folder: TrustedDirectory, keep: Int) throws(DirectoryError)
        -> Loaded
    {
        let baseline = try readBaseline(key, in: folder)
        let limit = maximumLogBytes(keep: keep)
        switch folder.read(key.logName, limit: limit) {
        case .success(let contents):
            try ownFile(contents, folder.child(key.logName))
            let log = HistoryLog(parsing: contents.bytes)
            return Loaded(log: log, baseline: baseline, problem: log.problem)
        case .failure(let error) where error.code == .missing:
            return Loaded(log: HistoryLog(), baseline: baseline)
        case .failure(let error) where error.code == .tooLarge:
            let size = folder.entry(key.logName).map { Int($0.info.st_size) } ?? 0
            let problem =
                "it is \(size) bytes, more than history.keep \(keep) allows (\(limit)): not written by showcased"
            return Loaded(log: HistoryLog(), baseline: baseline, problem: problem)
        case .failure(let error): throw error
        }
    }

    /// ``load(_:in:keep:)``, with a log that cannot be kept set aside (the writers' lock held).
    private func loadLocked(_ key: HistoryKey, in folder: TrustedDirectory, keep: Int) throws(DirectoryError)
        -> Loaded
    {
        var loaded = try Self.load(key, in: folder, keep: keep)
        guard let problem = loaded.problem else { return loaded }
        // Serials carry on past every valid one seen, so `latest` never goes backwards and a client paging with
        // `since` misses nothing the new log records.
        let floor = max(loaded.log.lastSerial, loaded.baseline?.lastSerial ?? 0)
        loaded.setAside = try setAsideLocked(key, in: folder, reason: problem, floor: floor)
        loaded.log = HistoryLog()
        loaded.baseline = .placeholder(lastSerial: floor, at: now())
        loaded.problem = nil
        return loaded
    }

    /// Renames the log and baseline of `key` to `<name>.bad-<time>` and leaves a placeholder baseline whose
    /// serials carry on after `floor`: the next roster starts a new baseline.
    private func setAsideLocked(_ key: HistoryKey, in folder: TrustedDirectory, reason: String, floor: Int)
        throws(DirectoryError) -> HistorySetAside
    {
        let at = now()
        var suffix = ".bad-" + RFC3339.seconds(at).filter { $0 != "-" && $0 != ":" }
        var attempt = 1
        while folder.entry(key.logName + suffix) != nil || folder.entry(key.baselineName + suffix) != nil {
            attempt += 1
            suffix = suffix.prefix { $0 != "~" } + "~\(attempt)"
        }
        for name in [key.logName, key.baselineName] where folder.entry(name) != nil {
            if let failure = folder.rename(name, to: name + suffix) { throw failure }
        }
        let placeholder = HistoryBaseline.placeholder(lastSerial: floor, at: at)
        if let failure = folder.replace(key.baselineName, bytes: placeholder.encoded, mode: 0o600) { throw failure }
        return HistorySetAside(key: key, file: folder.child(key.logName + suffix), reason: reason, at: at)
    }

    private static func readBaseline(_ key: HistoryKey, in folder: TrustedDirectory) throws(DirectoryError)
        -> HistoryBaseline?
    {
        switch folder.read(key.baselineName, limit: baselineReadLimit) {
        case .success(let contents):
            try ownFile(contents, folder.child(key.baselineName))
            // A baseline that does not decode (foreign, an older format) is none: the next roster becomes it.
            return HistoryBaseline(encoded: contents.bytes)
        case .failure(let error) where error.code == .missing: return nil
        // A baseline larger than any the daemon writes is none either.
        case .failure(let error) where error.code == .tooLarge: return nil
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

/// A history log the store set aside (SPEC §20): where it went, why, and when.
public struct HistorySetAside: Sendable, Hashable {
    /// Whose history it was.
    public var key: HistoryKey
    /// The log's new path (`…/us.log.bad-20261206T010203Z`); its baseline went to the same suffix.
    public var file: String
    /// What was wrong with it.
    public var reason: String
    /// When it was set aside.
    public var at: Date

    /// A set-aside log with every field given.
    public init(key: HistoryKey, file: String, reason: String, at: Date) {
        self.key = key
        self.file = file
        self.reason = reason
        self.at = at
    }

    /// One sentence for the log, Status and Health.
    public var message: String {
        "the change history of \(key) was set aside as \(file): \(reason); a new baseline starts with the next "
            + "roster (remove the file once looked at)"
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
    /// The log set aside before this roster was compared, if one was.
    public var setAside: HistorySetAside?

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
    /// Each app's current release as the baseline keeps it, checked (``HistoryBaseline/Release/checked(now:)``).
    public var releases: [Int: HistoryBaseline.Release] = [:]
    /// Lines of the log that were no entry (foreign, too long, a time out of range), skipped.
    public var skippedLines = 0
    /// Entries left out because a URL fails §5's rules (``HistoryEntry/refusal(under:)``).
    public var refusedEntries = 0
    /// The first such entry's serial and reason.
    public var refusal: String?
    /// The log set aside by this read, if it was.
    public var setAside: HistorySetAside?

    /// A reading with every field given.
    public init(entries: [HistoryEntry], latest: Int, baselineAt: Date?) {
        self.entries = entries
        self.latest = latest
        self.baselineAt = baselineAt
    }
}
