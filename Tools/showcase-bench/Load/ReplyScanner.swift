/// Decides whether a Varlink reply is an error reply without decoding it.
///
/// The load generator sees up to ~100k replies of ~15 KB per second; decoding them (or even walking every
/// byte) would make the client the bottleneck and measure itself. A Varlink reply's top-level members are
/// `parameters` (the only object), `continues` and `error` (scalars), in any order. So the scanner reads the
/// scalar members from the front until it meets the first object or array, then from the back until it meets
/// an object or array again, and looks for the key `error` among them: a few dozen bytes per reply whatever
/// its size. Anything it cannot classify that way (an escaped key, an object member other than `parameters`
/// met from the front) falls back to a full scan that tracks nesting and strings. Only a reply outside the
/// Varlink grammar — a second object member after `parameters` with `error` between the two — could fool it.
enum ReplyScanner {
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let colon = UInt8(ascii: ":")
    private static let comma = UInt8(ascii: ",")
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    private static let openBracket = UInt8(ascii: "[")
    private static let closeBracket = UInt8(ascii: "]")
    private static let errorKey: [UInt8] = Array("error".utf8)
    private static let parametersKey: [UInt8] = Array("parameters".utf8)

    /// True when the top-level object of `message` (one reply, without its NUL) has an `error` member.
    static func isError(_ message: UnsafeBufferPointer<UInt8>) -> Bool {
        switch scanFromFront(message) {
        case .found: return true
        case .notFound: return false
        case .unclear: return fullScan(message)
        case .reachedComplexValue:
            switch scanFromBack(message) {
            case .found: return true
            case .notFound, .reachedComplexValue: return false
            case .unclear: return fullScan(message)
            }
        }
    }

    private enum Outcome {
        case found, notFound, reachedComplexValue, unclear
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func scanFromFront(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        var index = 0
        let end = bytes.count
        func skipSpace() { while index < end, isSpace(bytes[index]) { index += 1 } }
        skipSpace()
        guard index < end, bytes[index] == openBrace else { return .unclear }
        index += 1
        while true {
            skipSpace()
            guard index < end else { return .unclear }
            if bytes[index] == closeBrace { return .notFound }
            guard bytes[index] == quote else { return .unclear }
            let keyStart = index + 1
            index = keyStart
            while index < end, bytes[index] != quote {
                if bytes[index] == backslash { return .unclear }
                index += 1
            }
            guard index < end else { return .unclear }
            let isErrorKey = equals(bytes, keyStart..<index, errorKey)
            let isParametersKey = equals(bytes, keyStart..<index, parametersKey)
            index += 1
            skipSpace()
            guard index < end, bytes[index] == colon else { return .unclear }
            if isErrorKey { return .found }
            index += 1
            skipSpace()
            guard index < end else { return .unclear }
            let first = bytes[index]
            if first == openBrace || first == openBracket {
                // Only `parameters` may be an object in a Varlink reply; anything else gets the full scan.
                return isParametersKey ? .reachedComplexValue : .unclear
            }
            if first == quote {
                index += 1
                while index < end, bytes[index] != quote {
                    index += bytes[index] == backslash ? 2 : 1
                }
                index += 1
            } else {
                while index < end, bytes[index] != comma, bytes[index] != closeBrace, !isSpace(bytes[index]) {
                    index += 1
                }
            }
            skipSpace()
            guard index < end else { return .unclear }
            if bytes[index] == comma {
                index += 1
                continue
            }
            return bytes[index] == closeBrace ? .notFound : .unclear
        }
    }

    private static func scanFromBack(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        var index = bytes.count - 1
        func skipSpace() { while index >= 0, isSpace(bytes[index]) { index -= 1 } }
        skipSpace()
        guard index >= 0, bytes[index] == closeBrace else { return .unclear }
        index -= 1
        while true {
            skipSpace()
            guard index >= 0 else { return .unclear }
            let last = bytes[index]
            if last == closeBrace || last == closeBracket { return .reachedComplexValue }
            if last == openBrace { return .notFound }
            if last == quote {
                // A string value: find its opening quote, one not escaped by an odd run of backslashes.
                index -= 1
                while index >= 0 {
                    if bytes[index] == quote {
                        var slashes = 0
                        while index - 1 - slashes >= 0, bytes[index - 1 - slashes] == backslash { slashes += 1 }
                        if slashes % 2 == 0 { break }
                    }
                    index -= 1
                }
                index -= 1
            } else {
                while index >= 0, bytes[index] != colon, !isSpace(bytes[index]) { index -= 1 }
            }
            skipSpace()
            guard index >= 0, bytes[index] == colon else { return .unclear }
            index -= 1
            skipSpace()
            guard index >= 0, bytes[index] == quote else { return .unclear }
            let keyEnd = index
            index -= 1
            while index >= 0, bytes[index] != quote {
                if bytes[index] == backslash { return .unclear }
                index -= 1
            }
            guard index >= 0 else { return .unclear }
            if equals(bytes, (index + 1)..<keyEnd, errorKey) { return .found }
            index -= 1
            skipSpace()
            guard index >= 0 else { return .unclear }
            if bytes[index] == comma {
                index -= 1
                continue
            }
            return bytes[index] == openBrace ? .notFound : .unclear
        }
    }

    /// Walks every byte, tracking strings and nesting: correct for any JSON object, used only as a fallback.
    private static func fullScan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var depth = 0
        var index = 0
        var expectKey = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                let start = index + 1
                index = start
                while index < bytes.count, bytes[index] != quote {
                    index += bytes[index] == backslash ? 2 : 1
                }
                if depth == 1, expectKey, index <= bytes.count, equals(bytes, start..<min(index, bytes.count), errorKey)
                {
                    var next = index + 1
                    while next < bytes.count, isSpace(bytes[next]) { next += 1 }
                    if next < bytes.count, bytes[next] == colon { return true }
                }
                expectKey = false
            } else if byte == openBrace || byte == openBracket {
                depth += 1
                expectKey = byte == openBrace && depth == 1
            } else if byte == closeBrace || byte == closeBracket {
                depth -= 1
            } else if byte == comma, depth == 1 {
                expectKey = true
            }
            index += 1
        }
        return false
    }

    @inline(__always)
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ key: [UInt8]) -> Bool {
        guard range.count == key.count else { return false }
        for offset in 0..<key.count where bytes[range.lowerBound + offset] != key[offset] { return false }
        return true
    }
}
