import FoundationEssentials
import ShowcaseCore

/// A JSON value whose object members keep the order they were built in, and its one fixed text form.
///
/// The export's documents are compared byte for byte to decide whether a file is rewritten, so their text
/// must depend on the content alone: `JSONSerialization` promises no member order, and `JSONEncoder` writes
/// `2.99` as `2.9900000000000002`. This writes members in the order given, numbers in their shortest
/// round-trip form, and indents by two spaces (the tree is read by people too: `make demo` shows a document).
enum JSONText: Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONText])
    case object([(String, JSONText)])
    /// Text rendered earlier by ``write(to:indent:)`` at the indent where it is placed again, copied as it is (a
    /// document's apps, rendered once and placed under each revision the writer tries).
    case rendered([UInt8])

    static func == (lhs: JSONText, rhs: JSONText) -> Bool { lhs.rendered() == rhs.rendered() }

    /// The text, ending in a newline.
    func rendered() -> Data {
        var text: [UInt8] = []
        text.reserveCapacity(4096)
        write(to: &text, indent: 0)
        text.append(UInt8(ascii: "\n"))
        return Data(text)
    }

    /// Appends the text (no final newline) to `text`, whose current line is indented by `indent` spaces.
    ///
    /// Bytes, not a `String` grown scalar by scalar: the export renders every document it cannot reuse, on every
    /// pass, to compare it with the file.
    func write(to text: inout [UInt8], indent: Int) {
        switch self {
        case .string(let value): Self.quote(value, into: &text)
        case .int(let value): text.append(contentsOf: String(value).utf8)
        // A non-finite number has no JSON spelling; `null` keeps the document valid.
        case .double(let value): text.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
        case .bool(let value): text.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: text.append(contentsOf: "null".utf8)
        case .rendered(let bytes): text.append(contentsOf: bytes)
        case .array(let items):
            Self.writeArray(items, indent: indent, into: &text) { item, text, indent in
                item.write(to: &text, indent: indent)
            }
        case .object(let members):
            var object = JSONObjectWriter(indent: indent)
            for (key, value) in members { object.value(key, value, into: &text) }
            object.finish(into: &text)
        }
    }

    /// Appends an array of `items`, each written by `item` at the indent it is given: the one place arrays get
    /// their brackets, commas and line breaks.
    static func writeArray<Items: Collection>(
        _ items: Items, indent: Int, into text: inout [UInt8],
        item: (Items.Element, inout [UInt8], Int) -> Void
    ) {
        guard !items.isEmpty else {
            text.append(contentsOf: "[]".utf8)
            return
        }
        text.append(contentsOf: "[\n".utf8)
        var remaining = items.count
        for element in items {
            spaces(indent + 2, into: &text)
            item(element, &text, indent + 2)
            remaining -= 1
            if remaining > 0 { text.append(UInt8(ascii: ",")) }
            text.append(UInt8(ascii: "\n"))
        }
        spaces(indent, into: &text)
        text.append(UInt8(ascii: "]"))
    }

    static func spaces(_ count: Int, into text: inout [UInt8]) {
        text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else as UTF-8. Every byte
    /// of a multi-byte UTF-8 sequence is ≥ 0x80, so escaping byte by byte is escaping scalar by scalar; runs
    /// that need no escape are copied whole.
    static func quote(_ value: String, into text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var run = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + 1
                switch byte {
                case UInt8(ascii: "\""): text.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): text.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): text.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): text.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): text.append(contentsOf: #"\t"#.utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    text.append(contentsOf: #"\u00"#.utf8)
                    text.append(hex[Int(byte >> 4)])
                    text.append(hex[Int(byte & 0x0F)])
                }
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        text.append(UInt8(ascii: "\""))
    }

    /// RFC 3339 in UTC with whole seconds (`2026-11-29T14:18:43Z`), the form `Roster.Get` answers with.
    static func timestamp(_ date: Date) -> JSONText { .string(RFC3339.seconds(date)) }
}
