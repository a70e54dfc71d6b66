import FoundationEssentials

/// One node of a parsed YAML document, with the position it was written at.
///
/// The tree keeps what a typed reader needs and a generic YAML-to-dictionary conversion loses:
/// the scalar's quoting style (so `"0660"` is a string and a bare `0660` can be flagged), mapping
/// keys in file order with their own positions (for "unknown key" errors), and duplicate keys
/// (kept, so they can be reported instead of silently overwritten).
///
/// Aliases are not copied: an alias shares the anchored node, so a document of many aliases costs
/// memory proportional to its text, not to its expansion.
public struct YAMLNode: Sendable {
    /// The node's content.
    public indirect enum Content: Sendable {
        /// A scalar: its text exactly as YAML resolved it, and how it was written.
        case scalar(String, ScalarStyle)
        /// A sequence, in order.
        case sequence([YAMLNode])
        /// A mapping, in file order. Duplicate keys are kept so the reader can report them.
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    /// How a scalar was written. Only a plain scalar can be a number, boolean or null.
    public enum ScalarStyle: Sendable, Equatable {
        case plain
        case singleQuoted
        case doubleQuoted
        case literal
        case folded
    }

    /// What the node holds: a scalar with its style, a sequence, or a mapping.
    public var content: Content
    /// Where the node starts.
    public var location: SourceLocation
    /// The explicit tag (`!!str`), if the file wrote one.
    public var tag: String?

    /// A node starting at `location`, as the reader builds them while parsing.
    public init(content: Content, location: SourceLocation, tag: String? = nil) {
        self.content = content
        self.location = location
        self.tag = tag
    }

    /// The scalar's text, or nil for a sequence or mapping.
    public var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// True for a plain `~`, `null`, `Null`, `NULL` or an empty plain scalar: YAML's spellings of "nothing".
    public var isNull: Bool {
        guard case .scalar(let text, .plain) = content, tag == nil else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// True when the scalar was quoted, written as a block, or explicitly tagged: its text is meant as a string.
    public var isExplicitString: Bool {
        guard case .scalar(_, let style) = content else { return false }
        return style != .plain || tag != nil
    }

    /// A short name of the node's kind for "expected …, found …" messages.
    public var kindDescription: String {
        switch content {
        case .scalar(let text, _):
            if isNull { return "nothing (null)" }
            // A long block of text is shortened: the position already says where it is.
            let shown = text.count > 60 ? text.prefix(57) + "..." : Substring(text)
            return "'\(shown.replacing("\n", with: "\\n"))'"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}
