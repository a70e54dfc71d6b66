import ShowcaseCore
import Varlink

extension JSONValue {
    /// A copy of this reply for human output: every string, and every member name, with its control characters
    /// escaped (`escapingControlCharacters()`), so an app name holding `ESC[2J`, an OSC title sequence or a line
    /// break is printed as `\x1b[2J` or `\x0a` instead of clearing the screen, setting the window title or
    /// splitting a table row (SPEC §17).
    ///
    /// The one place daemon data enters the tables and lines of human output: views decode this copy, never the
    /// reply itself, and `--json` prints the reply as received. Numbers, booleans and null are kept.
    func escapingControlCharacters() -> JSONValue {
        switch self {
        case .string(let text):
            return .string(text.escapingControlCharacters())
        case .array(let items):
            return .array(items.map { $0.escapingControlCharacters() })
        case .object(let members):
            return .object(
                Dictionary(
                    members.map { ($0.key.escapingControlCharacters(), $0.value.escapingControlCharacters()) },
                    uniquingKeysWith: { first, _ in first }))
        case .null, .bool, .int, .double:
            return self
        }
    }
}
