/// Writes one JSON object member by member straight into bytes, in exactly the text ``JSONText/object(_:)``
/// renders (which uses it): the export's apps are written this way, without building a ``JSONText`` tree first —
/// a document of 200 apps is some 4,000 members, and no tree of them is built and freed.
struct JSONObjectWriter {
    /// The indent of the line the object starts on.
    private let indent: Int
    private var members = 0

    /// A writer for an object that starts on a line indented by `indent` spaces.
    init(indent: Int) {
        self.indent = indent
    }

    /// Starts the member `key`: the text that precedes its value.
    private mutating func key(_ key: String, into text: inout [UInt8]) {
        text.append(contentsOf: (members == 0 ? "{\n" : ",\n").utf8)
        JSONText.spaces(indent + 2, into: &text)
        JSONText.quote(key, into: &text)
        text.append(contentsOf: ": ".utf8)
        members += 1
    }

    /// A string member.
    mutating func string(_ key: String, _ value: String, into text: inout [UInt8]) {
        self.key(key, into: &text)
        JSONText.quote(value, into: &text)
    }

    /// An integer member.
    mutating func int(_ key: String, _ value: Int, into text: inout [UInt8]) {
        self.key(key, into: &text)
        text.append(contentsOf: String(value).utf8)
    }

    /// A member whose value is an array of strings, written without building a ``JSONText`` tree.
    mutating func strings(_ key: String, _ values: [String], into text: inout [UInt8]) {
        self.key(key, into: &text)
        JSONText.writeArray(values, indent: indent + 2, into: &text) { value, text, _ in
            JSONText.quote(value, into: &text)
        }
    }

    /// A member of any value.
    mutating func value(_ key: String, _ value: JSONText, into text: inout [UInt8]) {
        self.key(key, into: &text)
        value.write(to: &text, indent: indent + 2)
    }

    /// Ends the object (`{}` when it has no member).
    func finish(into text: inout [UInt8]) {
        guard members > 0 else {
            text.append(contentsOf: "{}".utf8)
            return
        }
        text.append(UInt8(ascii: "\n"))
        JSONText.spaces(indent, into: &text)
        text.append(UInt8(ascii: "}"))
    }
}
