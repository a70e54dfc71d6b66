/// The placeholders of a label's text: `{name}` is a lowercase letter, then lowercase letters, digits or `_`, in
/// braces. Anything else in braces (`{ }`, `{Name}`, a lone `{`) is text and stays as it is.
public enum LabelText {
    /// The placeholder names in `text`, in order of appearance, repeats included.
    public static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        scan(text) { piece in
            if case .placeholder(let name) = piece { names.append(name) }
        }
        return names
    }

    /// `text` with each placeholder named in `values` replaced by its value, in one pass: a value is never read
    /// again, so a name that reads `{price}` stays `{price}` and cannot pull another value into the line.
    /// Placeholders without a value stay as written.
    public static func filled(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 32)
        scan(text) { piece in
            switch piece {
            case .text(let part): result += part
            case .placeholder(let name): result += values[name] ?? "{" + name + "}"
            }
        }
        return result
    }

    /// A run of `text`: literal text, or one placeholder's name.
    private enum Piece {
        case text(Substring)
        case placeholder(String)
    }

    /// Calls `body` with each run of `text`, in order.
    private static func scan(_ text: String, _ body: (Piece) -> Void) {
        var start = text.startIndex
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: "{") {
            let nameStart = text.index(after: open)
            guard let close = text[nameStart...].firstIndex(of: "}") else { break }
            let name = text[nameStart..<close]
            guard isName(name) else {
                index = nameStart
                continue
            }
            if start < open { body(.text(text[start..<open])) }
            body(.placeholder(String(name)))
            start = text.index(after: close)
            index = start
        }
        if start < text.endIndex { body(.text(text[start...])) }
    }

    /// Whether `name` can name a placeholder: `[a-z][a-z0-9_]*`.
    private static func isName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
