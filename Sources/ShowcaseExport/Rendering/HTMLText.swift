/// HTML text and attribute values written straight into bytes, escaped for where they stand.
///
/// Every name, tagline and price comes from upstream or the overlay: an operator's typo or a hostile row must
/// never open an element or end an attribute. `&`, `<`, `>`, `"` and `'` become character references in both
/// text and (always double-quoted) attribute values; everything else is copied as UTF-8 but the code points the
/// HTML5 parser reports as errors (SPEC §20): NUL, C0 controls but TAB, LF and CR, DEL, C1 controls and
/// noncharacters are dropped, since HTML forbids references to them too.
enum HTMLText {
    /// Appends `value` escaped for HTML text or a quoted attribute value.
    static func escaped(_ value: String, into text: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            var run = 0
            var index = 0
            while index < bytes.count {
                let reference: StaticString
                let width: Int
                switch bytes[index] {
                case UInt8(ascii: "&"): (reference, width) = ("&amp;", 1)
                case UInt8(ascii: "<"): (reference, width) = ("&lt;", 1)
                case UInt8(ascii: ">"): (reference, width) = ("&gt;", 1)
                case UInt8(ascii: "\""): (reference, width) = ("&quot;", 1)
                case UInt8(ascii: "'"): (reference, width) = ("&#39;", 1)
                case 0x00...0x7F, 0xC3...0xEE, 0xF5...0xFF:
                    guard isControl(bytes[index]) else {
                        index += 1
                        continue
                    }
                    (reference, width) = ("", 1)
                default:
                    let forbidden = forbiddenWidth(bytes, at: index)
                    guard forbidden > 0 else {
                        index += 1
                        continue
                    }
                    (reference, width) = ("", forbidden)
                }
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                reference.withUTF8Buffer { text.append(contentsOf: $0) }
                index += width
                run = index
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
    }

    /// True for an ASCII byte HTML text must not carry: C0 controls but TAB, LF and CR, and DEL.
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }

    /// The UTF-8 length of the C1 control or noncharacter starting at `index` of valid UTF-8 `bytes` (lead byte
    /// `C2`, `EF` or `F0`–`F4`), or 0 when the character there is allowed.
    static func forbiddenWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        switch bytes[index] {
        case 0xC2:
            // U+0080–U+009F.
            return bytes[index + 1] <= 0x9F ? 2 : 0
        case 0xEF:
            // U+FDD0–U+FDEF and U+FFFE, U+FFFF.
            let second = bytes[index + 1]
            let third = bytes[index + 2]
            return (second == 0xB7 && (0x90...0xAF).contains(third)) || (second == 0xBF && third >= 0xBE) ? 3 : 0
        case 0xF0...0xF4:
            // U+nFFFE and U+nFFFF of planes 1–16: the last two code points of every plane.
            return bytes[index + 1] & 0x0F == 0x0F && bytes[index + 2] == 0xBF && bytes[index + 3] >= 0xBE ? 4 : 0
        default:
            return 0
        }
    }

    /// `value` without the code points ``escaped(_:into:)`` drops, for text HTML carries in another notation
    /// (the JSON-LD's strings, where JSON would spell a C0 control as `\u0001` and a reader would get it back).
    static func stripped(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: isForbidden) else { return value }
        var kept = ""
        kept.unicodeScalars.append(contentsOf: value.unicodeScalars.lazy.filter { !isForbidden($0) })
        return kept
    }

    /// True for a code point HTML text must not carry (what ``escaped(_:into:)`` drops).
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F, 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }

    /// Appends markup the renderer wrote itself (never text from a roster).
    static func markup(_ literal: String, into text: inout [UInt8]) {
        text.append(contentsOf: literal.utf8)
    }

    /// Appends ` name="value"`, the value escaped.
    static func attribute(_ name: String, _ value: String, into text: inout [UInt8]) {
        text.append(UInt8(ascii: " "))
        markup(name, into: &text)
        text.append(contentsOf: "=\"".utf8)
        escaped(value, into: &text)
        text.append(UInt8(ascii: "\""))
    }

    /// Appends `<name class="className">value</name>` with `value` escaped (`name` and `className` are the
    /// renderer's own).
    static func element(_ open: String, _ value: String, close: String, into text: inout [UInt8]) {
        markup(open, into: &text)
        escaped(value, into: &text)
        markup(close, into: &text)
    }

    /// JSON text made safe inside `<script type="application/ld+json">`: `<`, `>` and `&` as `\u003c`, `\u003e`,
    /// `\u0026`, so no `</script>`, `<!--` or character reference can appear whatever a string holds. Outside
    /// strings JSON has none of the three, so escaping every one is escaping the strings. DEL, C1 controls and
    /// noncharacters (JSON leaves them raw; the HTML5 parser reports them) are dropped as in ``escaped(_:into:)``:
    /// whole characters inside a string, so the JSON stays valid.
    static func scriptSafeJSON(_ json: [UInt8], into text: inout [UInt8]) {
        json.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "<"): text.append(contentsOf: #"\u003c"#.utf8)
                case UInt8(ascii: ">"): text.append(contentsOf: #"\u003e"#.utf8)
                case UInt8(ascii: "&"): text.append(contentsOf: #"\u0026"#.utf8)
                case 0xC2, 0xEF, 0xF0...0xF4:
                    let forbidden = forbiddenWidth(bytes, at: index)
                    guard forbidden == 0 else {
                        index += forbidden
                        continue
                    }
                    text.append(byte)
                default:
                    if !isControl(byte) { text.append(byte) }
                }
                index += 1
            }
        }
    }
}
