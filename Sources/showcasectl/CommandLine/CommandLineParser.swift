import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore

/// Turns `showcasectl`'s arguments into an `Invocation`, or a `CommandLineError` that names the
/// offending word.
///
/// Accepts `--flag value` and `--flag=value`; global flags anywhere on the line; `--` to end flags.
/// Every value is validated here (storefront codes, platform, OS version, wait time, app id) so that
/// a typo is reported before any connection is made, with the usage line of that command.
struct CommandLineParser {
    static let overviewUsageLine =
        "usage: showcasectl [--socket PATH] [--json] COMMAND [ARGS] "
        + "(commands: \(CommandSpec.all.map(\.name).joined(separator: ", ")); see showcasectl --help)"

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(CommandLineError) -> Invocation {
        var parser = CommandLineParser()
        return try parser.run(arguments)
    }

    private var options = GlobalOptions()
    private var spec: CommandSpec?
    private var values: [String: String] = [:]
    private var positionals: [String] = []
    private var helpRequested = false
    private var versionRequested = false
    /// The first problem met; kept rather than thrown so that `--help` anywhere still wins.
    private var firstError: CommandLineError?

    private mutating func run(_ arguments: [String]) throws(CommandLineError) -> Invocation {
        var index = 0
        var flagsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if flagsEnded || word == "-" || !word.hasPrefix("-") {
                takePositional(word)
                continue
            }
            if word == "--" {
                flagsEnded = true
                continue
            }
            if word == "-h" || word == "-V" {
                if word == "-h" { helpRequested = true } else { versionRequested = true }
                continue
            }
            guard word.hasPrefix("--") else {
                fail(.usage("unknown option '\(word)'\(hint(for: word))", command: spec))
                continue
            }
            let body = word.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let option = lookUp(name) else { continue }
            if option.valueName == nil {
                if inlineValue != nil {
                    fail(.usage("option --\(name) takes no value", command: spec))
                }
                switch name {
                case "help": helpRequested = true
                case "version": versionRequested = true
                case "json": options.json = true
                default: values[name] = ""
                }
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                fail(.usage("option --\(name) needs a value (\(option.valueName!))", command: spec))
                continue
            }
            if value.isEmpty {
                fail(.usage("option --\(name) needs a non-empty value (\(option.valueName!))", command: spec))
                continue
            }
            store(value, for: name)
        }
        if helpRequested {
            return Invocation(options: options, command: .help(command: spec?.name))
        }
        if versionRequested {
            return Invocation(options: options, command: .clientVersion)
        }
        if let firstError { throw firstError }
        guard let spec else {
            throw .usage("no command given", command: nil)
        }
        let command = try build(spec)
        return Invocation(options: options, command: command)
    }

    private mutating func fail(_ error: CommandLineError) {
        if firstError == nil { firstError = error }
    }

    private mutating func takePositional(_ word: String) {
        guard spec != nil else {
            if let found = CommandSpec.named(word) {
                spec = found
            } else {
                let guess = ClosestMatch.find(word, in: CommandSpec.all.map(\.name))
                fail(.usage("unknown command '\(word)'" + (guess.map { " (did you mean \($0)?)" } ?? ""), command: nil))
            }
            return
        }
        positionals.append(word)
    }

    /// The spec of `--name` for the command seen so far, or nil after recording why it is refused.
    private mutating func lookUp(_ name: String) -> OptionSpec? {
        if let global = CommandSpec.globalOptions.first(where: { $0.name == name }) { return global }
        if let spec {
            if let own = spec.options.first(where: { $0.name == name }) { return own }
            fail(.usage("unknown option '--\(name)' for \(spec.name)\(hint(for: "--" + name))", command: spec))
            return nil
        }
        if CommandSpec.all.contains(where: { $0.options.contains { $0.name == name } }) {
            fail(.usage("option --\(name) belongs after the command (showcasectl COMMAND --\(name) …)", command: nil))
        } else {
            fail(.usage("unknown option '--\(name)'\(hint(for: "--" + name))", command: nil))
        }
        return nil
    }

    private func hint(for word: String) -> String {
        let names = (CommandSpec.globalOptions + (spec?.options ?? [])).map { "--\($0.name)" } + ["-V", "-h"]
        return ClosestMatch.find(word, in: names).map { " (did you mean \($0)?)" } ?? ""
    }

    private mutating func store(_ value: String, for name: String) {
        switch name {
        case "socket":
            if options.socketPath != nil { fail(.usage("option --socket given more than once", command: spec)) }
            options.socketPath = value
        case "config":
            if options.configPath != nil { fail(.usage("option --config given more than once", command: spec)) }
            options.configPath = value
        default:
            if values[name] != nil { fail(.usage("option --\(name) given more than once", command: spec)) }
            values[name] = value
        }
    }

    // MARK: Building the command

    private func build(_ spec: CommandSpec) throws(CommandLineError) -> Command {
        for option in spec.options where option.isRequired && values[option.name] == nil {
            throw .usage("\(spec.name) needs --\(option.name) \(option.valueName ?? "")", command: spec)
        }
        if positionals.count > (spec.positional == nil ? 0 : 1) {
            let extra = positionals[spec.positional == nil ? 0 : 1]
            throw .usage("unexpected argument '\(extra)' for \(spec.name)", command: spec)
        }
        if spec.positionalRequired, positionals.isEmpty {
            throw .usage("\(spec.name) needs \(spec.positional ?? "an argument")", command: spec)
        }
        switch spec.name {
        case "roster":
            return .roster(
                RosterOptions(
                    storefront: try storefront(values["storefront"]!),
                    host: try host(spec),
                    platform: try platform(spec),
                    device: try device(spec),
                    osVersion: try osVersion(spec),
                    locale: try locale(spec),
                    waitMilliseconds: try waitMilliseconds(spec)))
        case "app":
            let text = positionals[0]
            guard let id = Int(text), id > 0 else {
                throw .usage("app id must be a positive integer like 1234567890, found '\(text)'", command: spec)
            }
            return .app(id: id, storefront: try storefront(values["storefront"]!), host: try host(spec))
        case "storefronts": return .storefronts
        case "watch":
            return .watch(
                storefront: try values["storefront"].map { (text) throws(CommandLineError) in try storefront(text) })
        case "status": return .status
        case "reload": return .reload
        case "refresh":
            return .refresh(
                storefront: try values["storefront"].map { (text) throws(CommandLineError) in try storefront(text) })
        case "check-config": return .checkConfig(path: positionals.first ?? options.configPath)
        case "export": return .export
        case "check": return .check(maxAge: try maxAge(spec))
        case "metrics": return .metrics
        case "changes":
            return .changes(
                storefront: try storefront(values["storefront"]!), host: try host(spec),
                since: try count("since", in: 0...Int.max, example: "41", spec),
                limit: try count("limit", in: RosterChangesRequest.limits, example: "100", spec),
                locale: try locale(spec))
        case "version": return .version
        case "help":
            if let topic = positionals.first, CommandSpec.named(topic) == nil {
                throw .usage("no help for unknown command '\(topic)'", command: spec)
            }
            return .help(command: positionals.first)
        default:
            throw .usage("unknown command '\(spec.name)'", command: nil)
        }
    }

    private func storefront(_ text: String) throws(CommandLineError) -> Storefront {
        do {
            return try Storefront(parsing: text)
        } catch {
            throw .badInput("\(error.description); list them with: showcasectl storefronts")
        }
    }

    private func host(_ spec: CommandSpec) throws(CommandLineError) -> String? {
        guard let text = values["host"] else { return nil }
        guard !text.contains(where: \.isWhitespace) else {
            throw .usage("--host must be a bundle id like com.example.NoteJar, found '\(text)'", command: spec)
        }
        return text
    }

    private func platform(_ spec: CommandSpec) throws(CommandLineError) -> Platform? {
        guard let text = values["platform"] else { return nil }
        guard let platform = Platform(rawValue: text.lowercased()) else {
            let names = Platform.allCases.map(\.rawValue).joined(separator: " or ")
            throw .usage("--platform must be \(names), found '\(text)'", command: spec)
        }
        return platform
    }

    private func device(_ spec: CommandSpec) throws(CommandLineError) -> DeviceFamily? {
        guard let text = values["device"] else { return nil }
        guard let device = DeviceFamily(rawValue: text.lowercased()), RosterOptions.deviceChoices.contains(device)
        else {
            let names = RosterOptions.deviceChoices.map(\.rawValue).joined(separator: ", ")
            let hint = text.lowercased() == DeviceFamily.mac.rawValue ? "; for Mac apps use --platform macos" : ""
            throw .usage("--device must be one of \(names), found '\(text)'\(hint)", command: spec)
        }
        return device
    }

    private func osVersion(_ spec: CommandSpec) throws(CommandLineError) -> OSVersion? {
        guard let text = values["os-version"] else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let version = OSVersion(text)
        else {
            throw .usage("--os-version must be a version like 17.0 or 14.2.1, found '\(text)'", command: spec)
        }
        return version
    }

    private func locale(_ spec: CommandSpec) throws(CommandLineError) -> String? {
        guard let text = values["locale"] else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        let languageOK = (2...3).contains(parts[0].count) && parts[0].allSatisfy { $0.isASCII && $0.isLetter }
        let restOK = parts.dropFirst().allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
        guard languageOK, restOK else {
            throw .usage("--locale must be a language tag like ja or pt-BR, found '\(text)'", command: spec)
        }
        return text
    }

    private func maxAge(_ spec: CommandSpec) throws(CommandLineError) -> Duration? {
        guard let text = values["max-age"] else { return nil }
        guard let duration = ConfigValue.duration(text), duration >= .seconds(1) else {
            throw .usage(
                "--max-age must be a duration of at least 1s like 90m, 48h or 2d, found '\(text)'", command: spec)
        }
        return duration
    }

    /// The whole number `--name` gives, within `range`.
    private func count(_ name: String, in range: ClosedRange<Int>, example: String, _ spec: CommandSpec)
        throws(CommandLineError) -> Int?
    {
        guard let text = values[name] else { return nil }
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), range.contains(value) else {
            let bounds =
                range.upperBound == Int.max
                ? "\(range.lowerBound) or more" : "\(range.lowerBound) to \(range.upperBound)"
            throw .usage("--\(name) must be a whole number \(bounds), like \(example), found '\(text)'", command: spec)
        }
        return value
    }

    private func waitMilliseconds(_ spec: CommandSpec) throws(CommandLineError) -> Int? {
        guard let text = values["wait"] else { return nil }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400,
            text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else {
            throw .usage(
                "--wait must be a number of seconds between 0 and 86400, like 10 or 2.5, found '\(text)'", command: spec
            )
        }
        return Int((seconds * 1000).rounded())
    }
}
