/// HTML text and attribute values written straight into bytes, escaped for where they stand.
///
/// Every name, tagline and price comes from upstream or the overlay: an operator's typo or a hostile row must
/// never open an element or end an attribute. `&`, `<`, `>`, `"` and `'` become character references in both
/// text and (always double-quoted) attribute values; everything else is copied as UTF-8.
enum HTMLText {
    /// Appends `value` escaped for HTML text or a quoted attribute value.
    static func escaped(_ value: String, into text: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            var run = 0
            for index in bytes.indices {
                let reference: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): reference = "&amp;"
                case UInt8(ascii: "<"): reference = "&lt;"
                case UInt8(ascii: ">"): reference = "&gt;"
                case UInt8(ascii: "\""): reference = "&quot;"
                case UInt8(ascii: "'"): reference = "&#39;"
                default: continue
                }
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                reference.withUTF8Buffer { text.append(contentsOf: $0) }
                run = index + 1
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
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
    /// strings JSON has none of the three, so escaping every one is escaping the strings.
    static func scriptSafeJSON(_ json: [UInt8], into text: inout [UInt8]) {
        for byte in json {
            switch byte {
            case UInt8(ascii: "<"): text.append(contentsOf: #"\u003c"#.utf8)
            case UInt8(ascii: ">"): text.append(contentsOf: #"\u003e"#.utf8)
            case UInt8(ascii: "&"): text.append(contentsOf: #"\u0026"#.utf8)
            default: text.append(byte)
            }
        }
    }
}
