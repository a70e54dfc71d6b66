import ShowcaseCore

/// The export's ``AppFieldWriter``: an app's fields as the members of one JSON object (``JSONObjectWriter``),
/// written straight into the document's bytes, which the caller moves in and takes back out (no copy).
struct JSONAppFields: AppFieldWriter {
    /// The object the members are added to.
    private var object: JSONObjectWriter
    /// The document's bytes while the object is written.
    var text: [UInt8] = []

    /// Members of an object that starts on a line indented by `indent` spaces.
    init(indent: Int) {
        object = JSONObjectWriter(indent: indent)
    }

    mutating func int(_ name: String, _ value: Int) { object.int(name, value, into: &text) }

    mutating func string(_ name: String, _ value: String) { object.string(name, value, into: &text) }

    mutating func double(_ name: String, _ value: Double) { object.value(name, .double(value), into: &text) }

    mutating func strings(_ name: String, _ values: [String]) { object.strings(name, values, into: &text) }

    /// A member that is not an `App` field (the export's own `taglines`, `icons`).
    mutating func member(_ name: String, _ value: JSONText) { object.value(name, value, into: &text) }

    /// Ends the object.
    mutating func finish() { object.finish(into: &text) }
}
