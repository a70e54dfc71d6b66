/// Where a piece of configuration came from, so every error can point an operator at the exact spot.
///
/// Lines and columns are 1-based, as editors and compilers print them.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as the operator named it (or as resolved relative to the config that referenced it).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in characters.
    public var column: Int

    /// A position; `line` and `column` are 1-based.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The start of a file: where errors about its content as a whole (too large, empty) point.
    public static func start(of file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1)
    }

    /// A file with no position in it, for a file that could not be read at all (missing, a directory, no
    /// permission): line and column 0, printed as the file alone, since there is no `:1:1` to open.
    public static func whole(_ file: String) -> SourceLocation {
        SourceLocation(file: file, line: 0, column: 0)
    }

    /// `file:line:column`, the prefix every configuration error is printed with; `file` alone for ``whole(_:)``.
    public var description: String { line > 0 ? "\(file):\(line):\(column)" : file }
}
