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

    /// The start of a file: where errors about the file as a whole (unreadable, too large, empty) point.
    public static func start(of file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1)
    }

    /// `file:line:column`, the prefix every configuration error is printed with.
    public var description: String { "\(file):\(line):\(column)" }
}
