import FoundationEssentials

/// `v1/.showcase-manifest`: the files showcased wrote under `v1/`, one path per line. The writer removes only
/// files listed here, which is how it never touches anything it did not write (an operator's `robots.txt`, a
/// sync tool's state, a file another program keeps there).
///
/// It lists a file before the file is first created and drops it only after the file is gone, so a crash at
/// any point leaves no file of ours unlisted.
struct ExportManifest: Equatable {
    static let fileName = ".showcase-manifest"
    static let header = "# Files showcased wrote under this directory; it removes only these. Do not edit."

    /// Paths relative to `v1/`.
    var paths: Set<String>

    init(paths: Set<String> = []) {
        self.paths = paths
    }

    /// The manifest in `bytes`; lines that are not safe relative paths are ignored (a damaged or edited manifest
    /// can never make the writer remove something outside the tree). Read as bytes, never `Character` by
    /// `Character`: it lists every file of the tree, which grows with developers × storefronts × platforms, and is read
    /// on every pass.
    init(parsing bytes: Data) {
        var paths = Set<String>()
        bytes.withUnsafeBytes { raw in
            for line in raw.split(separator: UInt8(ascii: "\n")) where Self.isSafePath(line) {
                paths.insert(String(decoding: line, as: UTF8.self))
            }
        }
        self.paths = paths
    }

    func encoded() -> Data {
        Data(([Self.header] + paths.sorted()).joined(separator: "\n").utf8 + [UInt8(ascii: "\n")])
    }

    /// A path of safe components: each starts with a letter or digit and holds only letters, digits, `.`, `_`
    /// and `-`, so none is `.`, `..` or hidden, and the path cannot leave the directory it is relative to.
    static func isSafePath(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { isSafePath($0) }
    }

    /// ``isSafePath(_:)`` of a path's UTF-8 bytes.
    static func isSafePath<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        !bytes.isEmpty
            && bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy {
                isSafeComponent($0)
            }
    }

    /// One safe path component (see ``isSafePath(_:)``), at most 200 bytes.
    static func isSafeComponent(_ component: Substring) -> Bool {
        isSafeComponent(component.utf8)
    }

    /// ``isSafeComponent(_:)`` of a component's UTF-8 bytes.
    static func isSafeComponent<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let first = bytes.first, bytes.count <= 200, first.isASCIILetterOrDigit else { return false }
        return bytes.allSatisfy {
            $0.isASCIILetterOrDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
                || $0 == UInt8(ascii: "-")
        }
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
