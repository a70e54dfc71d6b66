/// Shows ``ProgressLine``s in place on a terminal (SPEC §17): each update rewrites the line (`\r`, the text, erase
/// to the end of the line), ``finish()`` clears it, so the command's real output starts on a clean line. Where
/// stderr is not a terminal, or under `--json`, it is built disabled and writes nothing at all.
public struct TerminalProgress {
    /// Whether anything is written.
    public let isEnabled: Bool
    private let write: (String) -> Void
    private var shown = false

    /// Progress written through `write` (stderr) when `isEnabled` (stderr is a terminal and no `--json`).
    public init(isEnabled: Bool, write: @escaping (String) -> Void) {
        self.isEnabled = isEnabled
        self.write = write
    }

    /// Replaces the line on screen with `line`.
    public mutating func update(_ line: ProgressLine) {
        update(line.text)
    }

    /// Replaces the line on screen with `text`, one line of the caller's own (`waiting for de: warming, 4 s of
    /// 30 s`); control characters in it are escaped, so a code quoted from a reply cannot move the cursor.
    public mutating func update(_ text: String) {
        guard isEnabled else { return }
        write("\r" + text.escapingControlCharacters() + "\u{1b}[K")
        shown = true
    }

    /// Clears the line, if one is shown.
    public mutating func finish() {
        guard isEnabled, shown else { return }
        write("\r\u{1b}[K")
        shown = false
    }
}
