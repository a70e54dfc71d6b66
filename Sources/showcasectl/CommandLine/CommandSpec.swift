/// What a `showcasectl` command accepts, for the parser and for `--help`.
///
/// This table is the single place the command line (showcasectl(1)) is written down in code; the parser
/// refuses whatever it does not list, so a flag cannot be accepted by one command and silently
/// ignored by another.
struct CommandSpec: Sendable {
    /// The command word (`roster`).
    let name: String
    /// The placeholder of the positional argument (`ID`, `PATH`), or nil when it takes none.
    let positional: String?
    /// Whether the positional argument must be given (`app ID`) or may be left out (`check-config [PATH]`).
    let positionalRequired: Bool
    /// One line for the command list of `showcasectl --help`.
    let summary: String
    /// A paragraph for `showcasectl COMMAND --help`: what the command does and when it fails.
    let details: String
    /// The command's own flags (the global ones are accepted everywhere on top of these).
    let options: [OptionSpec]
    /// A command line worth copying.
    let example: String

    init(
        _ name: String, positional: String? = nil, positionalRequired: Bool = false, summary: String,
        details: String, options: [OptionSpec] = [], example: String
    ) {
        self.name = name
        self.positional = positional
        self.positionalRequired = positionalRequired
        self.summary = summary
        self.details = details
        self.options = options
        self.example = example
    }

    /// `roster --storefront CC [--host BUNDLE_ID] …`, as in showcasectl(1).
    var synopsis: String {
        var words = [name]
        if let positional {
            words.append(positionalRequired ? positional : "[\(positional)]")
        }
        for option in options {
            words.append(option.isRequired ? option.usageFragment : "[\(option.usageFragment)]")
        }
        return words.joined(separator: " ")
    }

    /// The usage line printed under every usage error.
    var usageLine: String { "usage: showcasectl [--socket PATH] [--json] \(synopsis)" }

    /// Finds the command spec by its word.
    static func named(_ name: String) -> CommandSpec? {
        all.first { $0.name == name }
    }

    /// Flags every command accepts, wherever they appear on the line.
    static let globalOptions: [OptionSpec] = [
        OptionSpec(
            "socket", value: "PATH",
            help: "the daemon's socket (default: $SHOWCASE_SOCKET, $RUNTIME_DIRECTORY/showcased.sock, "
                + "/run/showcase/showcased.sock as root, else $XDG_RUNTIME_DIR/showcase/showcased.sock, "
                + "or /run/showcase/showcased.sock when only that one exists)"),
        OptionSpec(
            "config", value: "PATH", help: "the configuration file (check-config; its socket.path when no --socket)"),
        OptionSpec("json", help: "print the method's reply parameters as one JSON document (watch: one per line)"),
        OptionSpec("help", help: "show help for showcasectl or the command"),
        OptionSpec("version", help: "print showcasectl's version and exit (the version command asks the daemon too)"),
    ]

    static let storefrontHelp = "storefront, alpha-2 or alpha-3 in any case (de, DEU)"
    static let hostHelp = "the host app's bundle id (default: the first host in the configuration)"

    /// Every command of showcasectl(1), in the order `--help` lists them.
    static let all: [CommandSpec] = [
        CommandSpec(
            "roster",
            summary: "list the developer's apps for a storefront",
            details: """
                Prints the roster the daemon serves for one storefront, filtered for a platform, device \
                family and OS version and with the overlay (order, exclusions, taglines) applied. A storefront that was \
                never fetched is "warming": its empty list does not mean "no apps". With --wait the \
                daemon waits up to SECONDS for the first fetch; the command exits 75 if the roster is \
                still warming when it answers.
                """,
            options: [
                OptionSpec("storefront", value: "CC", required: true, help: storefrontHelp),
                OptionSpec("host", value: "BUNDLE_ID", help: hostHelp),
                OptionSpec("platform", value: "ios|macos", help: "store to list (default: default_platform)"),
                OptionSpec(
                    "device", value: RosterOptions.deviceChoices.map(\.rawValue).joined(separator: "|"),
                    help: "only apps for this device family (default: apps for iPhone or iPad)"),
                OptionSpec("os-version", value: "X.Y", help: "hide apps whose minimum OS is newer than X.Y"),
                OptionSpec("locale", value: "LL", help: "tagline language (default: the storefront's, e.g. ja for jp)"),
                OptionSpec("wait", value: "SECONDS", help: "wait up to SECONDS for a roster that is still warming"),
            ],
            example: "showcasectl roster --storefront de --platform ios --os-version 17.0 --wait 10"),
        CommandSpec(
            "app", positional: "ID", positionalRequired: true,
            summary: "show one app of a storefront's roster",
            details: """
                Prints one app by its App Store id (trackId) as the roster serves it in that storefront. \
                Exits 1 when the roster does not serve it: not sold there, excluded by the overlay, or the host \
                app itself (a roster never lists its host).
                """,
            options: [
                OptionSpec("storefront", value: "CC", required: true, help: storefrontHelp),
                OptionSpec("host", value: "BUNDLE_ID", help: hostHelp),
            ],
            example: "showcasectl app 1234567890 --storefront jp"),
        CommandSpec(
            "storefronts",
            summary: "list every App Store storefront and whether it is kept warm",
            details: "Lists every storefront the daemon knows, with its alpha-3 code, name, and whether it is "
                + "kept refreshed (the configured storefronts plus any queried since).",
            example: "showcasectl storefronts"),
        CommandSpec(
            "watch",
            summary: "print each new revision of the roster until interrupted",
            details: """
                Prints the current roster, then again each time it changes (identical refreshes print \
                nothing). Runs until interrupted; Ctrl-C exits 0. With --json, one document per line.
                """,
            options: [OptionSpec("storefront", value: "CC", help: "only this storefront (default: every storefront)")],
            example: "showcasectl --json watch --storefront de"),
        CommandSpec(
            "status",
            summary: "show the daemon's version, configuration and each storefront's state",
            details: """
                Prints the daemon's version, configuration file and generation, the last reload error, \
                upstream request counters, and one line per storefront: state, age, next refresh, apps \
                and last error. Needs admin rights (root, the daemon's user, or socket.admin_uids).
                """,
            example: "showcasectl status"),
        CommandSpec(
            "reload",
            summary: "load the edited configuration and overlays, or change nothing",
            details: """
                Asks the daemon to validate its configuration file and overlays and swap them in atomically. \
                When they are invalid it prints the first error as FILE:LINE:COLUMN: MESSAGE, keeps the \
                running configuration, and exits 78. Needs admin rights.
                """,
            example: "showcasectl reload"),
        CommandSpec(
            "refresh",
            summary: "fetch rosters from the lookup service now",
            details: """
                Refreshes one storefront, or every warm storefront, and returns when the fetches have \
                finished (they wait for the rate limiter). Exits 1 if any refresh failed; the cached \
                roster is still served. Needs admin rights.
                """,
            options: [OptionSpec("storefront", value: "CC", help: "only this storefront (default: every warm one)")],
            example: "showcasectl refresh --storefront de"),
        CommandSpec(
            "check-config", positional: "PATH",
            summary: "validate a configuration and its overlays without a daemon",
            details: """
                Validates the configuration file (PATH, else --config, else the default path) and every \
                overlay it references, without needing the cache directory, the socket or a running \
                daemon. Prints a summary and exits 0, or prints each error as FILE:LINE:COLUMN: MESSAGE \
                and exits 78. With --json, stdout has one document: {"file", "valid", "summary"} or \
                {"file", "valid": false, "errors": [{"file", "line", "column", "message"}]}.
                """,
            example: "showcasectl check-config /etc/showcase/showcase.yaml"),
        CommandSpec(
            "check",
            summary: "monitoring plugin: one status line, exit 0/1/2/3 (Nagios, Icinga, Sensu)",
            details: """
                Asks the daemon for Roster.Health (no admin rights needed: a member of the socket's group \
                may run it) and prints one line in the monitoring-plugin convention, \
                SHOWCASE OK|WARNING|CRITICAL|UNKNOWN - SUMMARY | PERFDATA, with each state's count and the \
                oldest roster's age as performance data. Exits 0 when every warm storefront is fresh; 1 when \
                some are stale but younger than --max-age (the cached roster is served while the lookup \
                service is unreachable) or still warming; 2 on a diagnostic (MalformedResponse, \
                MissingEntityParameter, HostAppNotFound), Unavailable, or a roster stale past --max-age; 3 when \
                the daemon cannot be reached or answers something unexpected.
                """,
            options: [
                OptionSpec(
                    "max-age", value: "DURATION",
                    help: "age past which a stale roster is critical, like 48h or 2d (default: twice refresh.interval)")
            ],
            example: "showcasectl check --max-age 2d"),
        CommandSpec(
            "export",
            summary: "write the static export now and print what changed",
            details: """
                Asks the daemon to bring export.directory up to date now (as it does after each new roster \
                revision and each reload) and prints the directory and how many files were written, left \
                unchanged and removed; unchanged files keep their mtime, so web servers keep their ETags. \
                Exits 1 if some files could not be written or removed (each is printed; their previous \
                versions stay), and 78 if the configuration has no export.directory. Needs admin rights.
                """,
            example: "showcasectl export"),
        CommandSpec(
            "metrics",
            summary: "print the daemon's Prometheus metrics (text exposition format)",
            details: """
                Prints what Admin.Metrics answers: the Prometheus text exposition (format 0.0.4) with build \
                info, the configuration generation, upstream request counters, each storefront's apps, age \
                and state, and Varlink calls by method; metrics.textfile holds the same text for \
                node_exporter's textfile collector. With --json, the reply {"text": ...}. Needs admin rights.
                """,
            example: "showcasectl metrics | grep showcase_roster_state"),
        CommandSpec(
            "changes",
            summary: "list what changed in a storefront's roster: apps added, removed, updated, repriced",
            details: """
                Prints the change history the daemon keeps for one storefront's roster, newest first: apps \
                added or removed, new versions (with their release notes under --json) and price changes, as \
                the overlay shows them now (excluded apps never appear). Each entry has a serial that only grows: \
                a job that remembers the latest one it saw passes it as --since next time and gets only what is \
                new (the oldest first page when more than --limit are new). A storefront configured with \
                languages keeps one history per language: --locale picks one as roster's does (fr or fr-CA: the \
                French roster), else the storefront's default language, and an empty one names the languages \
                that have entries. A storefront not kept warm has no history (latest 0). Exits 65 for an unknown \
                storefront or host, 64 for a --limit outside 1 to 1000 or a --locale that is no language tag.
                """,
            options: [
                OptionSpec("storefront", value: "CC", required: true, help: storefrontHelp),
                OptionSpec("host", value: "BUNDLE_ID", help: hostHelp),
                OptionSpec("since", value: "SERIAL", help: "only changes with a serial above SERIAL"),
                OptionSpec("limit", value: "N", help: "at most N changes, 1 to 1000 (default 100)"),
                OptionSpec(
                    "locale", value: "LL",
                    help: "the roster in that language, for a storefront with languages (default: its first)"),
            ],
            example: "showcasectl changes --storefront ca --locale fr --since 41"),
        CommandSpec(
            "version",
            summary: "print showcasectl's version and, when reachable, the daemon's",
            details: "Prints this client's version, and the running daemon's when it answers on the socket.",
            example: "showcasectl version"),
        CommandSpec(
            "help", positional: "COMMAND",
            summary: "show help for showcasectl or one command",
            details: "Same as showcasectl --help, or showcasectl COMMAND --help.",
            example: "showcasectl help roster"),
    ]
}
