@preconcurrency import Glibc
import ShowcaseCore

/// Where output goes, and whether it may be decorated.
///
/// Colour is used only when standard output is a terminal and `NO_COLOR` is unset or empty
/// (no-color.org), so pipes, files and scripts always get plain text.
///
/// Control characters from data never reach the terminal raw (SPEC §17): error lines are escaped here, as a
/// whole; standard output lines carry colour of their own, so their data is escaped before it is composed
/// (views read `JSONValue.escapingControlCharacters()`'s copy of a reply, other lines escape what they quote).
struct Console: Sendable {
    /// Standard output is a terminal (a person is reading).
    let isTerminal: Bool
    /// Whether ANSI colour may be written.
    let usesColor: Bool

    init(environment: [String: String]) {
        isTerminal = isatty(STDOUT_FILENO) == 1
        usesColor = isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Writes a line to standard output.
    func line(_ text: String) {
        fputs(text + "\n", stdout)
    }

    /// Writes a line to standard output and pushes it out at once: for `watch`, where a pipe's
    /// block buffering would otherwise hold revisions back until the buffer fills.
    func lineNow(_ text: String) {
        fputs(text + "\n", stdout)
        fflush(stdout)
    }

    /// Writes one line to standard error, prefixed with the program name, its control characters escaped (it
    /// may quote the daemon's or upstream's text, and is never coloured).
    func error(_ text: String) {
        fputs("showcasectl: \(text.escapingControlCharacters())\n", stderr)
    }

    /// Writes a line to standard error, its control characters escaped (the usage line under an error).
    func errorDetail(_ text: String) {
        fputs(text.escapingControlCharacters() + "\n", stderr)
    }

    /// Wraps `text` in an SGR colour when colour is allowed.
    func paint(_ text: String, _ style: Style) -> String {
        usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// The few SGR styles the tables use.
    enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case green = "32"
        case yellow = "33"
        case red = "31"
        case cyan = "36"
    }
}

extension Console {
    /// The terminal's width in columns, or nil when standard output is not a terminal (then
    /// nothing is cut: a script reading the table gets every character).
    var width: Int? {
        guard isTerminal else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

extension Console {
    /// Pushes buffered standard output out now (see `lineNow`).
    func flush() {
        fflush(stdout)
    }
}
