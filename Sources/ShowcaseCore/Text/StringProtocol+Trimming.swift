extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: Foundation's
    /// `trimmingCharacters(in: .whitespaces)`, without Foundation.
    public func trimmingWhitespace() -> String {
        trimming(Self.isWhitespace)
    }

    /// The text without leading and trailing whitespace and line breaks: Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` (also U+000A–U+000D, U+0085, U+2028, U+2029).
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming { scalar in
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
            default: Self.isWhitespace(scalar)
            }
        }
    }

    /// CoreFoundation's whitespace set, which `.whitespaces` is: the tab, Unicode's space separators, and the zero
    /// width space U+200B (a space separator in Unicode's early versions, still one to CoreFoundation).
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Whether the two texts are equal ignoring case, as Foundation's `caseInsensitiveCompare` is `.orderedSame`
    /// for them: both are compared upper- then lowercased, so `ß` matches `ss` and `ς` matches `σ`.
    public func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        uppercased().lowercased() == other.uppercased().lowercased()
    }

    private func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
