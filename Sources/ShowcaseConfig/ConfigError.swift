/// One mistake in a configuration or overlay file: where it is and what to do about it.
///
/// Printed as `file:line:column: message`, the form editors and `showcasectl check-config` use,
/// and carried field by field in the daemon's `io.showcase.Admin.ConfigInvalid` error. Compared by
/// code and location, so tests do not depend on the exact wording of the message.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake this is.
    public enum Code: String, Sendable, Hashable {
        /// The file could not be read (missing, a directory, no permission).
        case unreadable
        /// A bound against hostile input was exceeded: file size, nesting depth, alias expansion.
        case limitExceeded
        /// libyaml rejected the text (tabs, bad indentation, unclosed quotes, several documents…).
        case syntax
        /// A key that the configuration does not have.
        case unknownKey
        /// The same key twice in one mapping, or the same host or value twice in a list.
        case duplicate
        /// A required key is absent.
        case missing
        /// The value has the wrong shape (a list where a mapping belongs, a string where a number belongs).
        case typeMismatch
        /// The value has the right shape but is not acceptable (a zero duration, an unknown storefront).
        case invalidValue
    }

    /// What kind of mistake this is; with `location`, what two errors are compared by.
    public var code: Code
    /// Where the mistake is.
    public var location: SourceLocation
    /// A sentence saying what is wrong and what was expected.
    public var message: String

    /// An error of `code` at `location`; `message` should say what was expected.
    public init(_ code: Code, at location: SourceLocation, _ message: String) {
        self.code = code
        self.location = location
        self.message = message
    }

    /// The file the mistake is in (shorthand for `location.file`).
    public var file: String { location.file }
    /// The 1-based line of the mistake.
    public var line: Int { location.line }
    /// The 1-based column of the mistake.
    public var column: Int { location.column }

    /// `file:line:column: message`.
    public var description: String { "\(location): \(message)" }

    /// Same code at the same place; the message is ignored so tests survive rewording.
    public static func == (lhs: ConfigError, rhs: ConfigError) -> Bool {
        lhs.code == rhs.code && lhs.location == rhs.location
    }

    /// Hashes code and location only, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(location)
    }
}

/// Every mistake found in a configuration and the overlays it references, in file order.
///
/// The loader reports all of them at once so an operator fixes a file in one pass instead of one
/// error per run. Never empty.
public struct ConfigErrors: Error, Sendable, CustomStringConvertible {
    /// The errors in file order; never empty.
    public var errors: [ConfigError]

    /// Wraps `errors`, which must not be empty (a precondition: an empty failure would report nothing).
    public init(_ errors: [ConfigError]) {
        precondition(!errors.isEmpty, "ConfigErrors needs at least one error")
        self.errors = errors
    }

    /// The first error: what a caller that can show only one (a Varlink `ConfigInvalid`) reports.
    public var first: ConfigError { errors[0] }

    /// One `file:line:column: message` line per error.
    public var description: String { errors.map(\.description).joined(separator: "\n") }

    /// Every error on one line (Status' `lastReloadError`), separated by "; ", or by a space after an error that
    /// ends in a question ("did you mean 'excluded'?"), which a semicolon would follow awkwardly.
    public var oneLine: String {
        errors.map(\.description).reduce("") { line, error in
            line.isEmpty ? error : line + (line.hasSuffix("?") ? " " : "; ") + error
        }
    }
}
