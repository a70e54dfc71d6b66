/// `showcased`'s command line. Flags override the configuration file; nothing else is read from argv.
public struct DaemonOptions: Sendable, Equatable {
    /// `--config PATH`: default `DefaultPaths().configFile` (see `man 8 showcased`).
    public var configPath: String?
    /// `--socket PATH`: overrides `socket.path`.
    public var socketPath: String?
    /// `--cache-dir PATH`: overrides `cache.directory`.
    public var cacheDirectory: String?
    /// `--help`: print ``usage`` and exit 0 without reading the configuration.
    public var showHelp = false
    /// `--version`, `-V`: print the version and exit 0 without reading the configuration.
    public var showVersion = false

    /// No flags given: every setting comes from the configuration file.
    public init() {}

    /// The `--help` text; keep it in step with the man page.
    public static let usage = """
        usage: showcased [--config PATH] [--socket PATH] [--cache-dir PATH]
               showcased --help | --version | -V

        Keeps App Store developer rosters warm and answers io.showcase.Roster and
        io.showcase.Admin over a Varlink Unix socket.

          --config PATH     configuration file (default: $CONFIGURATION_DIRECTORY/showcase.yaml,
                            /etc/showcase/showcase.yaml as root, else $XDG_CONFIG_HOME/showcase/showcase.yaml)
          --socket PATH     socket to listen on, overriding socket.path (ignored under socket activation)
          --cache-dir PATH  cache directory, overriding cache.directory
          --help            print this help
          -V, --version     print the version

        Signals: SIGHUP reloads the configuration; SIGTERM and SIGINT stop gracefully.
        Exit status: 0 stopped cleanly, 64 usage error, 78 configuration invalid, 71 socket unavailable.
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
        func value(for flag: String, inline: String?) throws(DaemonUsageError) -> String {
            if let inline { return inline }
            guard let next = rest.popFirst(), !next.isEmpty else { throw DaemonUsageError("\(flag) needs a path") }
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
            case "--help", "-h": options.showHelp = true
            case "--version", "-V": options.showVersion = true
            default:
                guard flag.hasPrefix("-") else { throw DaemonUsageError("unknown argument '\(argument)'") }
                throw DaemonUsageError(unknownOption: flag, known: flags)
            }
        }
        return options
    }
}
