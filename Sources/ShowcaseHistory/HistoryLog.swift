import FoundationEssentials

/// A history log's content as read: its complete entries in serial order, and how many of its bytes they take.
///
/// A line is complete only with its final `\n`: a `kill -9` mid-append leaves a cut last line, which is not an
/// entry, and ``validLength`` tells the next append where to cut it off. A line that does not decode (foreign
/// text) is skipped, and so is one whose serial does not increase, so serials read back strictly increasing
/// whatever the file holds.
public struct HistoryLog: Sendable, Hashable {
    /// The entries, oldest first.
    public var entries: [HistoryEntry]
    /// The length of the file up to the end of its last complete line.
    public var validLength: Int

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
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if let entry = HistoryEntry(line: bytes[start..<newline]), entry.serial > (entries.last?.serial ?? 0) {
                entries.append(entry)
            }
            start = bytes.index(after: newline)
            valid = bytes.distance(from: bytes.startIndex, to: start)
        }
        self.init(entries: entries, validLength: valid)
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
