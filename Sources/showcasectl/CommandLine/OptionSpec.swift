/// One `--flag` a command accepts, described once so that parsing, `--help`, the man page tests and
/// the completion tests all read the same list.
struct OptionSpec: Sendable, Equatable {
    /// The flag without its dashes (`storefront` for `--storefront`).
    let name: String
    /// The placeholder shown for the flag's value (`CC`), or nil for a switch such as `--json`.
    let valueName: String?
    /// One line for `--help`.
    let help: String
    /// Whether the command cannot run without it (`roster --storefront`).
    let isRequired: Bool

    init(_ name: String, value valueName: String? = nil, required isRequired: Bool = false, help: String) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.isRequired = isRequired
    }

    /// The flag as typed, with its value placeholder: `--storefront CC`.
    var usageFragment: String {
        valueName.map { "--\(name) \($0)" } ?? "--\(name)"
    }
}
