import FoundationEssentials

extension HistoryEntry {
    /// The entry as one line of a history log: a JSON object (no raw newline can occur inside: JSON escapes them)
    /// and a final `\n`. `at` is in whole milliseconds since 1970, so it reads back exactly.
    public var line: Data {
        var data = (try? Self.encoder.encode(self)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The entry one log line holds (without its `\n`), or nil for anything else: a line cut by a crash, a foreign
    /// line, one longer than ``maximumLineBytes`` (never decoded), one whose `at` is no time RFC 3339 can write.
    /// A `versionDate` that is no ``releaseDate`` is dropped, as when recorded. The serial is the log's to judge
    /// (``HistoryLog``): out of range or order, it sets the whole log aside.
    public init?(line: some Collection<UInt8>) {
        guard line.count < Self.maximumLineBytes,
            var entry = try? Self.decoder.decode(HistoryEntry.self, from: Data(line)), entry.hasWritableTime
        else { return nil }
        if entry.releaseDate == nil { entry.versionDate = nil }
        self = entry
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()
}
