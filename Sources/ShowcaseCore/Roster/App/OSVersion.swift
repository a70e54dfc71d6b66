/// A dotted OS version ("9.0", "10.13", "18.0.1") compared numerically, component by component.
///
/// Floors arrive as strings; comparing them as strings puts "18.0" before "9.0" and hides every modern app.
/// Missing components count as zero, so "18" == "18.0" == "18.0.0".
///
/// Every cached app carries one, so the value is kept small and parsed from UTF-8 bytes: four components of at
/// most six digits packed into two integers (no array, no allocation), compared and hashed as those integers.
public struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Components 1 and 2 (high and low 32 bits), then 3 and 4: numeric order is the integers' order.
    private let high: UInt64
    private let low: UInt64
    /// The text as given, for display.
    public let text: String

    /// Numeric components, trailing zeros removed so equal versions compare and hash equal.
    public var components: [Int] {
        var all = [high >> 32, high & 0xFFFF_FFFF, low >> 32, low & 0xFFFF_FFFF].map { Int($0) }
        while all.count > 1, all.last == 0 { all.removeLast() }
        return all
    }

    /// Parses one to four dot-separated non-negative integers of at most six digits, surrounded by any
    /// horizontal whitespace; anything else (empty, "abc", "1..2", "-1") is nil.
    public init?(_ text: String) {
        var trimmed = text
        let parsed = trimmed.withUTF8 { Self.parse($0) }
        if let (high, low, start, end) = parsed {
            if start != 0 || end != trimmed.utf8.count {
                trimmed = String(decoding: Array(trimmed.utf8)[start..<end], as: UTF8.self)
            }
            self.init(high: high, low: low, text: trimmed)
            return
        }
        // Non-ASCII horizontal whitespace (U+00A0, U+3000…) around the digits: trim it, then parse again.
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isHorizontalSpace($0) }),
            let last = scalars.lastIndex(where: { !Self.isHorizontalSpace($0) })
        else { return nil }
        var inner = String(scalars[first...last])
        guard let (high, low, start, end) = inner.withUTF8({ Self.parse($0) }), start == 0,
            end == inner.utf8.count
        else { return nil }
        self.init(high: high, low: low, text: inner)
    }

    private init(high: UInt64, low: UInt64, text: String) {
        self.high = high
        self.low = low
        self.text = text
    }

    /// `.whitespaces`: Unicode space separators and the tab.
    private static func isHorizontalSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// The packed components and the byte range of the version inside ASCII spaces and tabs, or nil.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, Int, Int)? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        var parts: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
        var value: UInt64 = 0
        var digits = 0
        var index = start
        while true {
            let atEnd = index == end
            let byte = atEnd ? UInt8(ascii: ".") : bytes[index]
            if byte == UInt8(ascii: ".") {
                guard digits > 0, count < 4 else { return nil }
                switch count {
                case 0: parts.0 = value
                case 1: parts.1 = value
                case 2: parts.2 = value
                default: parts.3 = value
                }
                count += 1
                value = 0
                digits = 0
                if atEnd { break }
            } else {
                guard byte >= 0x30, byte <= 0x39, digits < 6 else { return nil }
                value = value * 10 + UInt64(byte - 0x30)
                digits += 1
            }
            index += 1
        }
        return (parts.0 << 32 | parts.1, parts.2 << 32 | parts.3, start, end)
    }

    /// The text as given.
    public var description: String { text }

    /// Numeric per-component order ("9.0" < "10.13" < "18.0").
    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// Equal when numerically equal ("18" == "18.0").
    public static func == (lhs: OSVersion, rhs: OSVersion) -> Bool { lhs.high == rhs.high && lhs.low == rhs.low }

    /// Hashes the numeric value, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }
}
