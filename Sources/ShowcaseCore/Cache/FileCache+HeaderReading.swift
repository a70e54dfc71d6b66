import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

extension FileCache {
    /// A roster file's header line, or nil when it is not one: read by ``FlatJSONDecoder`` when it has the flat
    /// shape this cache writes (the listing's fast path), else by `JSONDecoder`, which decides every other case.
    static func header(from line: some Collection<UInt8>) -> Header? {
        if let header = try? FlatJSONDecoder.decode(Header.self, from: line) { return header }
        return try? JSONDecoder().decode(Header.self, from: Data(line))
    }
}

extension FileCache {
    /// The longest header line a roster file may have: this cache writes about 300 bytes. The listing reads no more
    /// of a file than this, and a file whose header is longer is not a roster file (its header is never decoded,
    /// so a hostile one costs no time however long it is).
    static let maxHeaderBytes = 4096

    /// The index of the newline ending the header, the first in `data` within ``maxHeaderBytes``; nil when there
    /// is none there. By `memchr`, never `Data.firstIndex(of:)`, which pays a run-time exclusivity check per byte,
    /// and this runs for every cached roster before READY.
    static func firstNewline(in data: Data) -> Data.Index? {
        data.withUnsafeBytes { buffer -> Data.Index? in
            guard let base = buffer.baseAddress, let found = memchr(base, 0x0A, min(buffer.count, maxHeaderBytes))
            else { return nil }
            return data.startIndex + (found - UnsafeMutableRawPointer(mutating: base))
        }
    }
}
