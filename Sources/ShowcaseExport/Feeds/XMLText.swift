/// Text made safe for an XML 1.0 document: the five markup characters as references, and every character XML
/// 1.0 forbids (C0 controls but TAB, LF and CR; U+FFFE, U+FFFF) dropped, since no reference can spell them.
/// Upstream text (names, release notes, prices) passes through here before it reaches a feed.
enum XMLText {
    /// `text` escaped for element content and attribute values alike.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                guard isAllowed(scalar) else { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether XML 1.0's `Char` production admits `scalar`.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
