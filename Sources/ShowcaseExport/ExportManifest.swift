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
    /// can never make the writer remove something outside the tree).
    init(parsing bytes: Data) {
        let text = String(decoding: bytes, as: UTF8.self)
        paths = Set(
            text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && Self.isSafePath($0) })
    }

    func encoded() -> Data {
        Data(([Self.header] + paths.sorted()).joined(separator: "\n").utf8 + [UInt8(ascii: "\n")])
    }

    /// A path of safe components: each starts with a letter or digit and holds only letters, digits, `.`, `_`
    /// and `-`, so none is `.`, `..` or hidden, and the path cannot leave the directory it is relative to.
    static func isSafePath(_ path: String) -> Bool {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        return !components.isEmpty && components.allSatisfy { isSafeComponent($0) }
    }

    /// One safe path component (see ``isSafePath(_:)``), at most 200 bytes.
    static func isSafeComponent(_ component: Substring) -> Bool {
        guard let first = component.unicodeScalars.first, component.utf8.count <= 200,
            first.isASCIILetterOrDigit
        else { return false }
        return component.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || "._-".unicodeScalars.contains($0) }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetterOrDigit: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
