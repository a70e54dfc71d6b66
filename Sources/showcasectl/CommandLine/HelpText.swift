/// The text of `showcasectl --help` and `showcasectl COMMAND --help`, built from `CommandSpec` so
/// that help can never list a flag the parser refuses, or miss one it accepts.
enum HelpText {
    static let exitStatuses = """
        exit status: 0 success; 1 upstream diagnostic or failed refresh; 64 usage error; 65 unknown
        storefront, host or parameter; 69 daemon not reachable; 75 still warming after --wait;
        77 permission denied; 78 configuration invalid or unreadable.
        """

    /// The overview: every command with its summary, the global flags, exit statuses, an example.
    static func overview() -> String {
        var lines = [
            "showcasectl: query and control showcased, the App Store \"more from this developer\" daemon",
            "",
            "usage: showcasectl [--socket PATH] [--json] COMMAND [ARGS]",
            "",
            "commands:",
        ]
        let width = CommandSpec.all.map(\.name.count).max() ?? 0
        for spec in CommandSpec.all {
            lines.append("  " + spec.name.padding(to: width) + "  " + spec.summary)
        }
        lines += ["", "global options:"]
        lines += optionLines(CommandSpec.globalOptions)
        lines += ["", exitStatuses, "", "examples:"]
        lines += [
            "  showcasectl roster --storefront de",
            "  showcasectl --json roster --storefront JPN --platform macos",
            "  showcasectl reload",
            "",
            "Run 'showcasectl COMMAND --help' for a command's options, or see showcasectl(1).",
        ]
        return lines.joined(separator: "\n")
    }

    /// One command's usage, description, options and example.
    static func command(_ spec: CommandSpec) -> String {
        var lines = [spec.usageLine, ""]
        lines += wrap(spec.details, width: 78)
        if !spec.options.isEmpty {
            lines += ["", "options:"]
            lines += optionLines(spec.options)
        }
        lines += ["", "global options:"]
        lines += optionLines(CommandSpec.globalOptions)
        lines += ["", "example:", "  " + spec.example]
        return lines.joined(separator: "\n")
    }

    private static func optionLines(_ options: [OptionSpec]) -> [String] {
        let shortForms = ["help": "-h, --help", "version": "-V, --version"]
        let labels = options.map { shortForms[$0.name] ?? $0.usageFragment }
        let width = labels.map(\.count).max() ?? 0
        var lines: [String] = []
        for (label, option) in zip(labels, options) {
            let help = option.help + (option.isRequired ? " (required)" : "")
            let wrapped = wrap(help, width: max(30, 78 - width - 4))
            lines.append("  " + label.padding(to: width) + "  " + (wrapped.first ?? ""))
            lines += wrapped.dropFirst().map { String(repeating: " ", count: width + 4) + $0 }
        }
        return lines
    }

    /// Greedy word wrap for the description paragraphs.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
