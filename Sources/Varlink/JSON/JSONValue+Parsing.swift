extension JSONValue {
    /// The deepest nesting the parser accepts. A peer sending a megabyte of `[` must get an
    /// error, not overflow the server's stack.
    public static let maximumDepth = 256

    /// Parses exactly one JSON value (surrounded by optional whitespace) from UTF-8 bytes.
    ///
    /// Hand-written for the socket hot path: no Foundation, strings without escapes are
    /// created straight from the input, UTF-8 is validated, lone surrogates and raw control
    /// characters are rejected, and `\u0000` becomes a NUL character inside the string.
    public init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
        var parser = JSONParser(bytes)
        self = try parser.parseDocument()
    }

    /// Parses exactly one JSON value from UTF-8 bytes.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) in try JSONValue(parsing: buffer) }
        }
        if let result {
            self = try result.get()
        } else {
            let array = Array(bytes)
            self = try array.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                try JSONValue(parsing: buffer)
            }
        }
    }

    /// Parses exactly one JSON value from text.
    public init(parsing text: String) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8))
    }
}

/// Recursive-descent JSON parser over a byte buffer.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index != bytes.count { throw error("unexpected bytes after the value") }
        return value
    }

    func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index, reason: reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        let start = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw error("invalid literal")
        }
        index += count
        return value
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONValue.maximumDepth { throw error("nesting deeper than \(JSONValue.maximumDepth)") }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object([:])
        }
        // Sized for a call message (method, parameters, more/oneway) so it never grows: growing a
        // dictionary rehashes it, and a call is parsed for every message the memo has not seen.
        var members = [String: JSONValue](minimumCapacity: 4)
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members[key] = try parseValue()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            }
            throw error("expected ',' or '}'")
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            }
            throw error("expected ',' or ']'")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zero in a number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected an exponent digit") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        // A magnitude beyond Double's range parses as infinity, which JSON cannot carry: serialized it would
        // become `null`, so the value a handler saw would not be the value the peer sent. Refuse it instead.
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .double(value)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Parses a string starting at the opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: ASCII/UTF-8 without escapes is taken straight from the input.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            if byte < 0x80 {
                index += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try parseEscape(into: &scratch)
            } else if byte < 0x20 {
                throw error("control character in a string")
            } else if byte < 0x80 {
                scratch.append(byte)
                index += 1
            } else {
                let sequenceStart = index
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
        }
        throw error("unterminated string")
    }

    /// Validates one multi-byte UTF-8 sequence (no overlongs, no surrogates, ≤ U+10FFFF).
    mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default: throw error("invalid UTF-8")
        }
        guard index + length <= bytes.count else { throw error("truncated UTF-8") }
        let second = bytes[index + 1]
        guard second >= lowerBound, second <= upperBound else { throw error("invalid UTF-8") }
        for offset in 2..<max(length, 2) where bytes[index + offset] & 0xC0 != 0x80 {
            throw error("invalid UTF-8")
        }
        index += length
    }

    mutating func parseEscape(into scratch: inout [UInt8]) throws(JSONParseError) {
        index += 1
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if scalar >= 0xD800, scalar <= 0xDBFF {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("unpaired high surrogate") }
                index += 2
                let low = try parseHex4()
                guard low >= 0xDC00, low <= 0xDFFF else { throw error("invalid low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00, scalar <= 0xDFFF {
                throw error("unpaired low surrogate")
            }
            appendUTF8(scalar, to: &scratch)
        default:
            throw error("invalid escape")
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
