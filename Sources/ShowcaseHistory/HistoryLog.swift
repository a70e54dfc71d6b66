import FoundationEssentials

/// A history log's content as read: its complete entries in serial order, and how many of its bytes they take.
///
/// A line is complete only with its final `\n`: a `kill -9` mid-append leaves a cut last line, which is not an
/// entry, and ``validLength`` tells the next append where to cut it off. A line that is no entry (foreign text,
/// longer than ``HistoryEntry/maximumLineBytes``, a time RFC 3339 cannot write) is skipped and counted. A serial
/// outside ``HistoryEntry/serials`` or not above the one before is no mistake the daemon makes: the log was
/// written by someone else, so reading stops there and ``problem`` says why (the store sets the log aside).
/// Parsing never traps and holds at most the file's bytes and its entries.
public struct HistoryLog: Sendable, Hashable {
    /// The entries, oldest first (those before a ``problem``, when there is one).
    public var entries: [HistoryEntry]
    /// The length of the file up to the end of its last complete line.
    public var validLength: Int
    /// Complete lines that were no entry, skipped.
    public var skippedLines = 0
    /// Why the log cannot be kept (a serial out of range or order, naming its line); nil when it can.
    public var problem: String?

    /// No entries.
    public init(entries: [HistoryEntry] = [], validLength: Int = 0) {
        self.entries = entries
        self.validLength = validLength
    }

    /// Parses a log file's bytes.
    public init(parsing bytes: Data) {
        var entries: [HistoryEntry] = []
        var start = bytes.startIndex
        var valid = 0
        var skipped = 0
        var number = 0
        var problem: String?
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            number += 1
            if let entry = HistoryEntry(line: bytes[start..<newline]) {
                let previous = entries.last?.serial ?? 0
                guard HistoryEntry.serials.contains(entry.serial), entry.serial > previous else {
                    problem =
                        HistoryEntry.serials.contains(entry.serial)
                        ? "line \(number) has serial \(entry.serial), not above the \(previous) before it"
                        : "line \(number) has serial \(entry.serial), outside 1…2^53"
                    break
                }
                entries.append(entry)
            } else {
                skipped += 1
            }
            start = bytes.index(after: newline)
            valid = bytes.distance(from: bytes.startIndex, to: start)
        }
        self.init(entries: entries, validLength: valid)
        skippedLines = skipped
        self.problem = problem
    }

    /// The newest serial in the log, 0 when it has none.
    public var lastSerial: Int { entries.last?.serial ?? 0 }

    /// The log's bytes: one line per entry.
    public var encoded: Data {
        var data = Data()
        for entry in entries { data.append(entry.line) }
        return data
    }
}
