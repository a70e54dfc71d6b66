import Foundation

extension FileCache {
    /// A roster file's header line, or nil when it is not one: read by ``FlatJSONDecoder`` when it has the flat
    /// shape this cache writes (the listing's fast path), else by `JSONDecoder`, which decides every other case.
    static func header(from line: some Collection<UInt8>) -> Header? {
        if let header = try? FlatJSONDecoder.decode(Header.self, from: line) { return header }
        return try? JSONDecoder().decode(Header.self, from: Data(line))
    }
}

extension FileCache {
    /// The index of the first newline in `data`, by `memchr`: `Data.firstIndex(of:)` paid an exclusivity check per
    /// byte (a quarter of listing 3,480 cache files, callgrind, BENCHMARKS.md).
    static func firstNewline(in data: Data) -> Data.Index? {
        data.withUnsafeBytes { buffer -> Data.Index? in
            guard let base = buffer.baseAddress, let found = memchr(base, 0x0A, buffer.count) else { return nil }
            return data.startIndex + (found - UnsafeMutableRawPointer(mutating: base))
        }
    }
}
