import Foundation
import ShowcaseConfig
import Testing

@Suite("YAML reader")
struct YAMLReaderTests {
    let reader = YAMLReader()

    @Test("gives every node its 1-based line and column")
    func positions() throws {
        let root = try #require(try reader.parse("a:\n  b: [x, 'y']\n", file: "f.yaml"))
        guard case .mapping(let top) = root.content, case .mapping(let inner) = top[0].value.content,
            case .sequence(let items) = inner[0].value.content
        else {
            Issue.record("unexpected shape: \(root)")
            return
        }
        #expect(top[0].key.location == ShowcaseConfig.SourceLocation(file: "f.yaml", line: 1, column: 1))
        #expect(inner[0].key.location == ShowcaseConfig.SourceLocation(file: "f.yaml", line: 2, column: 3))
        #expect(items.map(\.location.column) == [7, 10])
        #expect(items.map(\.location.line) == [2, 2])
    }

    @Test("keeps the scalar style so a quoted number stays a string")
    func scalarStyles() throws {
        let root = try #require(try reader.parse("a: \"0660\"\nb: 0660\nc: 'x'\nd: |\n  text\ne: ~\n", file: "f"))
        guard case .mapping(let pairs) = root.content else {
            Issue.record("not a mapping")
            return
        }
        let values = pairs.map(\.value)
        #expect(values.map(\.scalar) == ["0660", "0660", "x", "text\n", "~"])
        #expect(values.map(\.isExplicitString) == [true, false, true, true, false])
        #expect(values.map(\.isNull) == [false, false, false, false, true])
    }

    @Test("resolves an alias to its anchored node, at the alias's position")
    func aliases() throws {
        let root = try #require(try reader.parse("a: &x [1, 2]\nb: *x\n", file: "f"))
        guard case .mapping(let pairs) = root.content, case .sequence(let aliased) = pairs[1].value.content else {
            Issue.record("unexpected shape")
            return
        }
        #expect(aliased.compactMap(\.scalar) == ["1", "2"])
        #expect(pairs[1].value.location.line == 2)
        #expect(pairs[1].value.location.column == 4)
    }

    @Test("keeps duplicate mapping keys so they can be reported")
    func duplicateKeysKept() throws {
        let root = try #require(try reader.parse("a: 1\na: 2\n", file: "f"))
        guard case .mapping(let pairs) = root.content else {
            Issue.record("not a mapping")
            return
        }
        #expect(pairs.compactMap(\.key.scalar) == ["a", "a"])
    }

    @Test("reads an empty or comment-only file as no document")
    func emptyFile() throws {
        #expect(try reader.parse("", file: "f") == nil)
        #expect(try reader.parse("# only a comment\n", file: "f") == nil)
    }

    @Test("rejects a second document at its separator")
    func multipleDocuments() throws {
        let error = #expect(throws: ConfigError.self) {
            try reader.read(path: fixture("invalid/multiple-documents.yaml"))
        }
        #expect(error?.code == .syntax)
        #expect(error?.line == 3)
        #expect(error?.column == 1)
    }

    @Test(
        "names a byte that is not UTF-8 in two uppercase hex digits, as String(format: \"0x%02X\") did",
        arguments: [(UInt8(0xFF), "(byte 0xFF)"), (0x08, "(byte 0x08)")])
    func invalidByte(byte: UInt8, named: String) throws {
        let error = #expect(throws: ConfigError.self) {
            try reader.parse(Array("hosts: a".utf8) + [byte] + Array("b\n".utf8), file: "f")
        }
        #expect(error?.code == .syntax)
        #expect(error?.message.contains(named) == true, "\(error?.message ?? "")")
        #expect(error?.message.hasSuffix("; configuration files must be UTF-8 text") == true)
    }

    @Test("reports tab indentation at the tab with libyaml's position, in a sentence that says to use spaces")
    func tabIndentation() throws {
        let error = #expect(throws: ConfigError.self) {
            try reader.read(path: fixture("invalid/tab-indentation.yaml"))
        }
        #expect(error?.code == .syntax)
        #expect(error?.line == 3)
        #expect(error?.column == 1)
        #expect(error?.message == "tabs are not allowed for indentation in YAML; use spaces")
    }

    @Test("reports bad indentation where libyaml finds it")
    func badIndentation() throws {
        let error = #expect(throws: ConfigError.self) {
            try reader.read(path: fixture("invalid/bad-indentation.yaml"))
        }
        #expect(error?.code == .syntax)
        #expect(error?.line == 3)
        #expect(error?.column == 4)
        #expect(error?.message.contains("block collection") == true)
    }

    @Test("refuses a billion-laughs file by counting alias expansion")
    func aliasBomb() throws {
        let error = #expect(throws: ConfigError.self) {
            try reader.read(path: fixture("invalid/alias-bomb.yaml"))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("billion laughs") == true)
        // Expansion crosses 100 000 nodes among the level-6 aliases, long before the 10^9 of the last line.
        #expect(error?.line == 7)
    }

    @Test("accepts aliases whose expansion stays within the node limit")
    func aliasWithinLimit() throws {
        let small = YAMLReader(limits: .init(maxNodes: 13))
        // root, 3 keys, the anchored list of 3 and two aliases of 3 each: exactly 13 nodes.
        #expect(try small.parse("a: &a [1, 2]\nb: *a\nc: *a\n", file: "f") != nil)
        #expect(throws: ConfigError.self) { try small.parse("a: &a [1, 2]\nb: *a\nc: *a\nd: *a\n", file: "f") }
    }

    @Test("refuses nesting deeper than the depth limit")
    func nestingDepth() throws {
        let text = "a: " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "\n"
        let error = #expect(throws: ConfigError.self) { try reader.parse(text, file: "f") }
        #expect(error?.code == .limitExceeded)
        #expect(error?.line == 1)
        #expect(error?.column == 4 + 63)
    }

    @Test("refuses a file over the size limit without parsing it")
    func oversizeFile() throws {
        let directory = try TemporaryDirectory(files: ["big.yaml": "# " + String(repeating: "x", count: 1 << 20) + "\n"]
        )
        let error = #expect(throws: ConfigError.self) { try reader.read(path: directory.file("big.yaml")) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.line == 1)
        #expect(error?.message.contains("1MiB") == true)
    }

    @Test("names the path of a file that does not exist")
    func missingFile() throws {
        let error = #expect(throws: ConfigError.self) { try reader.read(path: "/nonexistent/showcase.yaml") }
        #expect(error?.code == .unreadable)
        #expect(error?.message.contains("/nonexistent/showcase.yaml") == true)
    }

    @Test("rejects an alias to an anchor that is not defined")
    func undefinedAlias() throws {
        let error = #expect(throws: ConfigError.self) { try reader.parse("a: *nope\n", file: "f") }
        #expect(error?.code == .syntax)
        #expect(error?.line == 1)
    }

    @Test("locates invalid UTF-8 by line and column")
    func invalidUTF8() throws {
        let bytes = Array("hosts:\n  - bundle_id: com.a.".utf8) + [0xFF] + Array("\n".utf8)
        let error = #expect(throws: ConfigError.self) { try reader.parse(bytes, file: "f") }
        #expect(error?.code == .syntax)
        #expect(error?.line == 2)
        #expect(error?.column == 22)
        #expect(error?.message.contains("UTF-8") == true)
    }
}
