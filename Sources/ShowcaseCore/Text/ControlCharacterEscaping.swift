extension String {
    /// The text with every control character from data written out visibly, so it can go into a log line or a
    /// terminal without forging a line, clearing a screen or setting a window title (SPEC §17 "Logs").
    ///
    /// Escaped: C0 (U+0000–U+001F) except TAB, DEL (U+007F) and C1 (U+0080–U+009F, NEL U+0085 among them) as
    /// `\x` and two lowercase hex digits (`\x1b`, `\x0a`); the line and paragraph separators U+2028 and U+2029 as
    /// `\u2028` and `\u2029`; and the backslash itself as `\\`, so text that already reads `\x1b` comes out as
    /// `\\x1b` and an escaped form can never be forged by data. Everything else, TAB and ordinary non-ASCII text
    /// such as `é` or `日本` included, is kept as it is. Text with nothing to escape is returned unchanged.
    public func escapingControlCharacters() -> String {
        guard unicodeScalars.contains(where: Self.needsEscaping) else { return self }
        var escaped = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard Self.needsEscaping(scalar) else {
                escaped.append(scalar)
                continue
            }
            let value = scalar.value
            let replacement: String
            if scalar == "\\" {
                replacement = "\\\\"
            } else if value < 0x100 {
                replacement = "\\x" + Self.hex(value, digits: 2)
            } else {
                replacement = "\\u" + Self.hex(value, digits: 4)
            }
            escaped.append(contentsOf: replacement.unicodeScalars)
        }
        return String(escaped)
    }

    /// A scalar `escapingControlCharacters()` rewrites.
    private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00...0x1F, 0x5C, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `value` in lowercase hex, zero-padded to `digits`.
    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: Swift.max(digits - text.count, 0)) + text
    }
}
