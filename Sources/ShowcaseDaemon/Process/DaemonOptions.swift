import ShowcaseConfig

/// `showcased`'s command line. Flags override the configuration file; nothing else is read from argv.
public struct DaemonOptions: Sendable, Equatable {
    /// `--config PATH`: default `DefaultPaths().configFile` (see `man 8 showcased`).
    public var configPath: String?
    /// `--socket PATH`: overrides `socket.path`.
    public var socketPath: String?
    /// `--cache-dir PATH`: overrides `cache.directory`.
    public var cacheDirectory: String?
    /// `--once`: refresh what is missing or stale, write the export, and exit, opening no socket (SPEC §17).
    public var once = false
    /// `--max-wait DURATION` (with `--once`): how long the run may wait for the rate limit or a `Retry-After`
    /// before it stops waiting; default ``defaultMaxWait``.
    public var maxWait = DaemonOptions.defaultMaxWait
    /// `--json` (with `--once`): the report as one JSON document instead of a line per roster, and no progress.
    public var json = false
    /// `--help`: print ``usage`` and exit 0 without reading the configuration.
    public var showHelp = false
    /// `--version`, `-V`: print the version and exit 0 without reading the configuration.
    public var showVersion = false

    /// No flags given: every setting comes from the configuration file.
    public init() {}

    /// `--max-wait`'s default: ten minutes, about the time a cold warm of 175 storefronts takes at 20/min.
    public static let defaultMaxWait = Duration.seconds(600)

    /// The `--help` text; keep it in step with the man page.
    public static let usage = """
        usage: showcased [--config PATH] [--socket PATH] [--cache-dir PATH]
               showcased --once [--config PATH] [--cache-dir PATH] [--max-wait DURATION] [--json]
               showcased --help | --version | -V

        Keeps App Store developer rosters warm and answers io.showcase.Roster and
        io.showcase.Admin over a Varlink Unix socket.

          --config PATH     configuration file (default: $CONFIGURATION_DIRECTORY/showcase.yaml,
                            /etc/showcase/showcase.yaml as root, else $XDG_CONFIG_HOME/showcase/showcase.yaml)
          --socket PATH     socket to listen on, overriding socket.path (ignored under socket activation)
          --cache-dir PATH  cache directory, overriding cache.directory
          --once            refresh every missing or stale roster, mirror the icons its documents
                            reference (export.icons), write the export, print one line per roster
                            ("17 rows, 11 apps on iOS": rows upstream sent, apps served on the
                            default platform) and one for icons ("icons: 32 of 32 mirrored", with
                            refused and failed counts) and exit; opens no socket (for a static site
                            built in CI)
          --max-wait DURATION
                            with --once: stop waiting for the rate limit, a Retry-After or an icon
                            download after this long (30s, 10m; default 10m)
          --json            with --once: print the report as one JSON document, and no progress
          --help            print this help
          -V, --version     print the version

        Signals: SIGHUP reloads the configuration; SIGTERM and SIGINT stop gracefully (with --once:
        stop waiting, write the export from what there is, and exit).
        Exit status: 0 stopped cleanly, 64 usage error, 78 configuration invalid, 71 socket unavailable
        or cache directory in use. With --once: 0 every roster fresh, 1 a diagnostic (malformed
        response, missing entity parameter, host app not found), 73 export not written, 75 a roster
        left stale or unavailable by a transport failure or by --max-wait; an icon refused or not
        fetched is counted in the report and changes no exit status
        """

    /// Every flag ``usage`` names (`--config`, `-V`), for the guess after an unknown one: read from the help, so a
    /// flag documented there is always among the guesses.
    static let flags = usage.split(whereSeparator: { " \n,|[]".contains($0) }).map(String.init).filter {
        $0.hasPrefix("-") && $0.count > 1
    }

    /// Parses `arguments` (without the program name).
    public static func parse(_ arguments: [String]) throws(DaemonUsageError) -> DaemonOptions {
        var options = DaemonOptions()
        var rest = arguments[...]
        // Flags that only mean something with --once, as given.
        var given: Set<String> = []
        func value(for flag: String, inline: String?) throws(DaemonUsageError) -> String {
            if let inline { return inline }
            guard let next = rest.popFirst(), !next.isEmpty else { throw DaemonUsageError("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let flag = parts[0]
            let inline = parts.count > 1 ? parts[1] : nil
            switch flag {
            case "--config": options.configPath = try value(for: flag, inline: inline)
            case "--socket": options.socketPath = try value(for: flag, inline: inline)
            case "--cache-dir": options.cacheDirectory = try value(for: flag, inline: inline)
            case "--once": options.once = true
            case "--max-wait":
                let text = try value(for: flag, inline: inline)
                guard let duration = ConfigValue.duration(text), duration > .zero else {
                    throw DaemonUsageError("--max-wait needs a positive duration such as 30s or 10m, got '\(text)'")
                }
                options.maxWait = duration
                given.insert(flag)
            case "--json":
                options.json = true
                given.insert(flag)
            case "--help", "-h": options.showHelp = true
            case "--version", "-V": options.showVersion = true
            default:
                guard flag.hasPrefix("-") else { throw DaemonUsageError("unknown argument '\(argument)'") }
                throw DaemonUsageError(unknownOption: flag, known: flags)
            }
        }
        if options.showHelp || options.showVersion { return options }
        if options.once, options.socketPath != nil {
            throw DaemonUsageError("--once opens no socket, so --socket cannot be combined with it")
        }
        if !options.once, let flag = given.sorted().first {
            throw DaemonUsageError("\(flag) only applies to a one-shot run: add --once, or leave \(flag) out")
        }
        return options
    }
}
