import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

extension ExportDocument {
    /// The `revision` and `revisedAt` of a document the writer rendered earlier, read from its header without
    /// parsing the apps; nil when `bytes` is not such a document.
    ///
    /// Only top-level members sit at two spaces of indent (apps are nested deeper), and every string before
    /// `revision` is a safe file-name component, so the first `\n  "revision": ` is the document's own.
    static func revision(in bytes: Data) -> (revision: Int, revisedAt: Date)? {
        let header = bytes.prefix(4096)
        guard let revision = Self.member("revision", in: header).flatMap({ Int(String(decoding: $0, as: UTF8.self)) }),
            revision > 0,
            let stamp = Self.member("revisedAt", in: header), stamp.count == 22, stamp.first == UInt8(ascii: "\""),
            let revisedAt = Self.date(String(decoding: stamp.dropFirst().dropLast(), as: UTF8.self))
        else { return nil }
        return (revision, revisedAt)
    }

    /// The raw text of the top-level member `name` (up to the comma or newline that ends it).
    private static func member(_ name: String, in header: Data) -> Data? {
        let key = Data("\n  \"\(name)\": ".utf8)
        guard let found = header.firstRange(of: key) else { return nil }
        let rest = header[found.upperBound...]
        let end = rest.firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\n") } ?? rest.endIndex
        return Data(rest[..<end])
    }

    /// `2026-11-29T14:18:43Z` (the only form the writer writes) as a date.
    private static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        var parts = tm()
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let seconds = timegm(&parts)
        guard seconds != -1 else { return nil }
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        // Round trip: separators, and values timegm would carry over (a 61st second), must render back the same.
        guard case .string(text) = JSONText.timestamp(date) else { return nil }
        return date
    }
}
