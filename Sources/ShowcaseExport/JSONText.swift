import Foundation

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

    static func == (lhs: JSONText, rhs: JSONText) -> Bool { lhs.rendered() == rhs.rendered() }

    /// The text, ending in a newline.
    func rendered() -> Data {
        var text = ""
        text.reserveCapacity(4096)
        write(to: &text, indent: 0)
        text += "\n"
        return Data(text.utf8)
    }

    private func write(to text: inout String, indent: Int) {
        switch self {
        case .string(let value): Self.quote(value, into: &text)
        case .int(let value): text += String(value)
        // A non-finite number has no JSON spelling; `null` keeps the document valid.
        case .double(let value): text += value.isFinite ? "\(value)" : "null"
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        case .array(let items):
            guard !items.isEmpty else {
                text += "[]"
                return
            }
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += String(repeating: " ", count: indent + 2)
                item.write(to: &text, indent: indent + 2)
                text += index == items.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else {
                text += "{}"
                return
            }
            text += "{\n"
            for (index, (key, value)) in members.enumerated() {
                text += String(repeating: " ", count: indent + 2)
                Self.quote(key, into: &text)
                text += ": "
                value.write(to: &text, indent: indent + 2)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: " ", count: indent) + "}"
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else as UTF-8.
    private static func quote(_ value: String, into text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                text +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// RFC 3339 in UTC with whole seconds (`2026-11-29T14:18:43Z`), the form `Roster.Get` answers with.
    static func timestamp(_ date: Date) -> JSONText {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return .string(
            String(
                format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)))
    }
}
