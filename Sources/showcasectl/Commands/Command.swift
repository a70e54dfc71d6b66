import ShowcaseCore

/// A parsed `showcasectl` command with validated arguments: what `CommandRunner` executes.
enum Command: Sendable, Equatable {
    case roster(RosterOptions)
    case app(id: Int, storefront: Storefront, host: String?)
    case storefronts
    case watch(storefront: Storefront?)
    case status
    case reload
    case refresh(storefront: Storefront?)
    case checkConfig(path: String?)
    case export
    /// The monitoring plugin over `Roster.Health`; nil `maxAge` means twice `refresh.interval`.
    case check(maxAge: Duration?)
    case metrics
    /// `Roster.Changes`: one page of what changed in a storefront's roster (nil `since`: the newest), the roster of
    /// `locale`'s language (nil: the storefront's default).
    case changes(storefront: Storefront, host: String?, since: Int?, limit: Int?, locale: String?)
    case version
    /// `--version` or `-V`: this client's version alone, without asking the daemon.
    case clientVersion
    /// `--help`, `-h` or `help [COMMAND]`: nil asks for the overview.
    case help(command: String?)
}
