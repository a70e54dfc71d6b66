import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A store URL with its storefront segment cut out, so one app's URL in 175 storefronts is stored once.
///
/// Apple's `trackViewUrl` differs between storefronts only in its first path component
/// (`https://apps.apple.com/de/app/x/id1?uo=4`, `…/jp/app/x/id1?uo=4`). An ``App`` keeps a template shared by every
/// storefront plus the two bytes of its own segment; the URL is rebuilt from both when read. A URL without such a
/// segment (any other shape) is kept whole, and ``url(segment:)`` returns it exactly: the round trip is byte for
/// byte in every case.
struct StoreURLTemplate: Sendable {
    /// The URL as first seen (with that storefront's segment in it).
    let text: String
    /// The UTF-8 offset of the two-letter segment in ``text``, or -1 when the URL has none.
    let offset: Int

    /// The two segment bytes packed as `first << 8 | second`; 0 for a URL without a segment.
    typealias Segment = UInt16

    /// Splits `url` into a template and its segment.
    init(splitting url: String) {
        var url = url
        let offset = url.withUTF8 { Self.segmentOffset(in: $0) }
        self.text = url
        self.offset = offset ?? -1
    }

    /// The segment of ``text`` itself.
    var ownSegment: Segment {
        guard offset >= 0 else { return 0 }
        var text = text
        return text.withUTF8 { Self.segment(in: $0, at: offset) }
    }

    /// The URL for `segment`: ``text`` itself when the segment is its own (no allocation), otherwise ``text`` with
    /// the two bytes replaced.
    func url(segment: Segment) -> String {
        guard offset >= 0, segment != ownSegment else { return text }
        var text = text
        return text.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { out in
                _ = out.initialize(from: bytes)
                out[offset] = UInt8(truncatingIfNeeded: segment >> 8)
                out[offset + 1] = UInt8(truncatingIfNeeded: segment)
                return bytes.count
            }
        }
    }

    /// True when `bytes` (a whole URL) is this template's URL for some segment, which is then returned: equal
    /// outside the segment, with the segment at the same place. A URL without a segment matches only itself.
    func match(_ bytes: UnsafeBufferPointer<UInt8>) -> Segment? {
        var text = text
        let offset = self.offset
        return text.withUTF8 { mine -> Segment? in
            guard mine.count == bytes.count else { return nil }
            guard offset >= 0 else { return Self.equal(mine, bytes, 0..<mine.count) ? 0 : nil }
            guard Self.segmentOffset(in: bytes) == offset, Self.equal(mine, bytes, 0..<offset),
                Self.equal(mine, bytes, (offset + 2)..<mine.count)
            else { return nil }
            return Self.segment(in: bytes, at: offset)
        }
    }

    /// ``match(_:)`` for a string.
    func match(_ url: String) -> Segment? {
        var url = url
        return url.withUTF8 { match($0) }
    }

    /// True when both describe the same URL for their segments, without building either.
    static func sameURL(_ a: StoreURLTemplate, _ aSegment: Segment, _ b: StoreURLTemplate, _ bSegment: Segment)
        -> Bool
    {
        guard a.offset == b.offset, aSegment == bSegment else { return false }
        var left = a.text
        var right = b.text
        return left.withUTF8 { l in
            right.withUTF8 { r in
                guard l.count == r.count else { return false }
                guard a.offset >= 0 else { return equal(l, r, 0..<l.count) }
                return equal(l, r, 0..<a.offset) && equal(l, r, (a.offset + 2)..<l.count)
            }
        }
    }

    /// Where the storefront segment of a URL starts: the first path component right after `scheme://host/`
    /// when it is exactly two ASCII letters followed by `/`; nil otherwise.
    static func segmentOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = 0
        // "://"
        while index + 2 < count, !(bytes[index] == 0x3A && bytes[index + 1] == 0x2F && bytes[index + 2] == 0x2F) {
            index += 1
        }
        guard index + 2 < count else { return nil }
        index += 3
        while index < count, bytes[index] != 0x2F { index += 1 }
        let start = index + 1
        guard start + 2 < count, isLetter(bytes[start]), isLetter(bytes[start + 1]), bytes[start + 2] == 0x2F
        else { return nil }
        return start
    }

    private static func segment(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Segment {
        Segment(bytes[offset]) << 8 | Segment(bytes[offset + 1])
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte | 0x20) }

    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        -> Bool
    {
        guard !range.isEmpty, let left = a.baseAddress, let right = b.baseAddress else { return true }
        return memcmp(left + range.lowerBound, right + range.lowerBound, range.count) == 0
    }
}
