import ShowcaseCore

/// A command-line mistake: exit status 64, printed with the usage, except an unknown flag, which gets one line
/// naming it and the flag it most likely meant (`unknown option '-v'; did you mean '-V' (--version)?`).
public struct DaemonUsageError: Error, Sendable, CustomStringConvertible {
    /// What was wrong with the command line, as one sentence.
    public let description: String
    /// Whether the usage follows the sentence (not for an unknown flag: the guess says more than the whole help).
    public let showsUsage: Bool

    init(_ description: String) {
        self.description = description
        showsUsage = true
    }

    /// `flag` (as typed, without its `=value`) is none of `known`.
    init(unknownOption flag: String, known: [String]) {
        var message = "unknown option '\(flag)'"
        if let guess = ClosestMatch.find(flag, in: known) {
            let long = guess.hasPrefix("--") ? nil : Self.longForms[guess]
            message += "; did you mean '\(guess)'\(long.map { " (\($0))" } ?? "")?"
        } else {
            message += "; see showcased --help"
        }
        description = message
        showsUsage = false
    }

    /// What a short flag stands for, named after the guess so `-V` is not mistaken for verbose.
    private static let longForms = ["-V": "--version", "-h": "--help"]
}
