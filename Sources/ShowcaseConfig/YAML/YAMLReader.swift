import CYaml
import FoundationEssentials
import ShowcaseCore

/// Reads YAML text into a `YAMLNode` tree with libyaml's event API, within bounds that keep a
/// hostile or broken file from costing more than a small, fixed amount of time and memory.
///
/// The event API (rather than libyaml's document loader) is used so positions, scalar styles and
/// aliases are seen as written, and so alias expansion can be *counted* while parsing and refused
/// long before a "billion laughs" file could expand.
public struct YAMLReader: Sendable {
    /// Bounds against hostile input.
    public struct Limits: Sendable, Equatable {
        /// Largest file accepted, in bytes. Default 1 MiB: a real configuration is a few KiB.
        public var maxFileBytes: Int
        /// Deepest nesting of sequences and mappings. Default 64.
        public var maxDepth: Int
        /// Most nodes the document may have with every alias expanded. Default 100 000.
        public var maxNodes: Int

        /// The documented defaults; tests shrink them to reach each bound with a small file.
        public init(maxFileBytes: Int = 1 << 20, maxDepth: Int = 64, maxNodes: Int = 100_000) {
            self.maxFileBytes = maxFileBytes
            self.maxDepth = maxDepth
            self.maxNodes = maxNodes
        }

        /// The bounds every real configuration is read with.
        public static let standard = Limits()

        /// The size limit as an operator would write it (`1MiB`).
        var sizeDescription: String {
            maxFileBytes % (1 << 20) == 0
                ? "\(maxFileBytes >> 20)MiB"
                : maxFileBytes % 1024 == 0 ? "\(maxFileBytes >> 10)KiB" : "\(maxFileBytes)B"
        }
    }

    /// The bounds this reader enforces.
    public var limits: Limits

    /// A reader enforcing `limits`.
    public init(limits: Limits = .standard) {
        self.limits = limits
    }

    /// Reads and parses the file at `path`. Returns nil for a file with no document (empty or only comments).
    public func read(path: String) throws(ConfigError) -> YAMLNode? {
        try parse(readBytes(path: path), file: path)
    }

    /// Reads a file's bytes, refusing one over the size limit without reading all of it, and refusing anything
    /// but a regular file: a FIFO, device or directory is an error naming the path at once, never a hang
    /// (``RegularFile``).
    public func readBytes(path: String) throws(ConfigError) -> [UInt8] {
        let start = SourceLocation.start(of: path)
        do {
            return [UInt8](try RegularFile.read(path: path, limit: limits.maxFileBytes))
        } catch {
            switch error.reason {
            case .tooLarge:
                throw ConfigError(
                    .limitExceeded, at: start,
                    "file is larger than the \(limits.sizeDescription) limit for configuration files; "
                        + "a real configuration is a few KiB")
            case .notRegular(let kind) where kind == "a directory":
                throw ConfigError(
                    .unreadable, at: .whole(path), "cannot read '\(path)': it is a directory, not a YAML file")
            case .notRegular(let kind):
                throw ConfigError(
                    .unreadable, at: .whole(path),
                    "cannot read '\(path)': it is \(kind), not a regular file; point it at a YAML file")
            default:
                throw ConfigError(.unreadable, at: .whole(path), error.description)
            }
        }
    }

    /// Parses YAML text. `file` is only used for positions. Returns nil when the text holds no document.
    public func parse(_ text: String, file: String) throws(ConfigError) -> YAMLNode? {
        try parse(Array(text.utf8), file: file)
    }

    /// Parses YAML bytes (UTF-8, or UTF-16 with a byte order mark, as libyaml accepts).
    public func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> YAMLNode? {
        guard bytes.count <= limits.maxFileBytes else {
            throw ConfigError(
                .limitExceeded, at: .start(of: file),
                "file is larger than the \(limits.sizeDescription) limit for configuration files")
        }
        var builder = TreeBuilder(file: file, limits: limits)
        let result: Result<YAMLNode?, ConfigError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                return .failure(ConfigError(.syntax, at: .start(of: file), "libyaml could not start (out of memory)"))
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    return .failure(Self.syntaxError(parser, file: file, bytes: buffer))
                }
                defer { yaml_event_delete(&event) }
                do throws(ConfigError) {
                    if try builder.handle(event) { return .success(builder.root) }
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    /// libyaml's own problem and position, plus a hint where its wording is opaque (tabs).
    private static func syntaxError(_ parser: yaml_parser_t, file: String, bytes: UnsafeBufferPointer<UInt8>)
        -> ConfigError
    {
        var message = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        if parser.error == YAML_READER_ERROR {
            // The reader (encoding) stage reports a byte offset, not a line and column.
            let offset = min(Int(parser.problem_offset), bytes.count)
            let before = bytes[..<offset]
            let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
            let line = before.count { $0 == UInt8(ascii: "\n") } + 1
            let column = bytes[lineStart..<offset].count { $0 & 0xC0 != 0x80 } + 1
            if parser.problem_value >= 0 {
                let hex = String(Int(parser.problem_value) & 0xFF, radix: 16, uppercase: true)
                message += " (byte 0x\(hex.count < 2 ? "0" + hex : hex))"
            }
            message += "; configuration files must be UTF-8 text"
            return ConfigError(.syntax, at: SourceLocation(file: file, line: line, column: column), message)
        }
        let mark = parser.problem_mark
        let location = SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
        if let context = parser.context {
            let contextMark = parser.context_mark
            message +=
                " \(String(cString: context)) (started at line \(contextMark.line + 1), "
                + "column \(contextMark.column + 1))"
        }
        let index = Int(mark.index)
        if index < bytes.count, bytes[index] == UInt8(ascii: "\t") {
            // libyaml's wording ("found character that cannot start any token while scanning for the next
            // token") does not say what to change.
            return ConfigError(.syntax, at: location, "tabs are not allowed for indentation in YAML; use spaces")
        }
        return ConfigError(.syntax, at: location, message)
    }
}

/// Turns the event stream into nodes, counting depth and expanded size as it goes.
private struct TreeBuilder {
    /// An open sequence or mapping. Mutated in place on the stack so long lists stay linear.
    private struct Frame {
        var node: YAMLNode
        var isMapping: Bool
        var anchor: String?
        var items: [YAMLNode] = []
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        var pendingKey: YAMLNode?
        /// Nodes this collection expands to, itself included.
        var weight = 1
    }

    let file: String
    let limits: YAMLReader.Limits
    private var stack: [Frame] = []
    /// Anchored nodes with the number of nodes they expand to.
    private var anchors: [String: (node: YAMLNode, weight: Int)] = [:]
    private var documents = 0
    private var expandedNodes = 0
    private(set) var root: YAMLNode?

    init(file: String, limits: YAMLReader.Limits) {
        self.file = file
        self.limits = limits
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    /// Handles one event; returns true at the end of the stream.
    mutating func handle(_ event: yaml_event_t) throws(ConfigError) -> Bool {
        let here = location(event.start_mark)
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw ConfigError(
                    .syntax, at: here,
                    "a second YAML document starts here; a configuration file holds exactly one document "
                        + "(remove the '---' separator or split the file)")
            }
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let text = String(
                decoding: UnsafeBufferPointer(start: data.value, count: Int(data.length)), as: UTF8.self)
            let style: YAMLNode.ScalarStyle
            switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            try count(1, at: here)
            let node = YAMLNode(content: .scalar(text, style), location: here, tag: Self.string(data.tag))
            add(node, weight: 1, anchor: Self.string(data.anchor))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let anchored = anchors[name] else {
                throw ConfigError(
                    .syntax, at: here,
                    "alias '*\(name)' refers to no anchor defined before it; define '&\(name)' first")
            }
            try count(anchored.weight, at: here)
            var node = anchored.node
            node.location = here
            add(node, weight: anchored.weight, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            try push(at: here)
            let data = event.data.sequence_start
            let node = YAMLNode(content: .sequence([]), location: here, tag: Self.string(data.tag))
            stack.append(Frame(node: node, isMapping: false, anchor: Self.string(data.anchor)))
        case YAML_MAPPING_START_EVENT:
            try push(at: here)
            let data = event.data.mapping_start
            let node = YAMLNode(content: .mapping([]), location: here, tag: Self.string(data.tag))
            stack.append(Frame(node: node, isMapping: true, anchor: Self.string(data.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard var frame = stack.popLast() else { break }
            frame.node.content = frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items)
            add(frame.node, weight: frame.weight, anchor: frame.anchor)
        default:
            break
        }
        return false
    }

    private mutating func push(at location: SourceLocation) throws(ConfigError) {
        try count(1, at: location)
        guard stack.count < limits.maxDepth else {
            throw ConfigError(
                .limitExceeded, at: location,
                "nesting deeper than \(limits.maxDepth) levels; a configuration is never this deep")
        }
    }

    private mutating func count(_ nodes: Int, at location: SourceLocation) throws(ConfigError) {
        expandedNodes += nodes
        guard expandedNodes <= limits.maxNodes else {
            throw ConfigError(
                .limitExceeded, at: location,
                "the document expands to more than \(limits.maxNodes) nodes (too many aliases or entries); "
                    + "refusing it as a possible \"billion laughs\" file")
        }
    }

    private mutating func add(_ node: YAMLNode, weight: Int, anchor: String?) {
        if let anchor { anchors[anchor] = (node, weight) }
        guard !stack.isEmpty else {
            root = node
            return
        }
        let top = stack.count - 1
        stack[top].weight += weight
        if !stack[top].isMapping {
            stack[top].items.append(node)
        } else if let key = stack[top].pendingKey {
            stack[top].pairs.append((key, node))
            stack[top].pendingKey = nil
        } else {
            stack[top].pendingKey = node
        }
    }
}
