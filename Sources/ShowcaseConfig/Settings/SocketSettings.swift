/// The `socket:` section: the Varlink socket showcased listens on and who may administer it.
public struct SocketSettings: Sendable, Equatable {
    /// `socket.path` — path, default `DefaultPaths.socketPath` (`$SHOWCASE_SOCKET`, else
    /// `$RUNTIME_DIRECTORY/showcased.sock`, else `/run/showcase/showcased.sock` as root, else
    /// `$XDG_RUNTIME_DIR/showcase/showcased.sock`; a relative `$SHOWCASE_SOCKET` is an error when it would be used).
    /// A relative path is taken relative to the configuration file. Unused under socket activation.
    public var path: String
    /// `socket.mode` — quoted octal string, default `"0660"`. Must be quoted: a bare `0660` is a
    /// number to YAML (octal 432 to some tools, 660 to others), and a misread mode is a security bug.
    /// Must include owner read and write (`0600`).
    public var mode: UInt32
    /// `socket.admin_uids` — list of uids, default `[]`. Besides root and the daemon's own uid, who
    /// may call `io.showcase.Admin`.
    public var adminUIDs: [UInt32]
    /// `socket.max_connections` — positive integer, default 4096: the most clients connected at once, every uid
    /// together. A client beyond it is told the daemon is busy. The unit's `LimitNOFILE=` leaves room for it.
    /// Read at start; a reload keeps the running value.
    public var maxConnections: Int
    /// `socket.max_connections_per_uid` — positive integer, default 1024, at most `max_connections`: the most
    /// clients one uid may have connected at once, so one uid can never take every slot. Root, the daemon's uid
    /// and `admin_uids` beyond either cap still reach `io.showcase.Admin` through a small reserve. Read at start.
    public var maxConnectionsPerUID: Int

    /// A socket section using `path` as given (unlike the loader, no relative-path resolution) and the documented
    /// defaults.
    public init(
        path: String, mode: UInt32 = 0o660, adminUIDs: [UInt32] = [], maxConnections: Int = 4096,
        maxConnectionsPerUID: Int = 1024
    ) {
        self.path = path
        self.mode = mode
        self.adminUIDs = adminUIDs
        self.maxConnections = maxConnections
        self.maxConnectionsPerUID = maxConnectionsPerUID
    }

    static let keys = ["path", "mode", "admin_uids", "max_connections", "max_connections_per_uid"]

    /// The largest value either connection cap accepts: far beyond any descriptor limit, small enough that no
    /// arithmetic on it can overflow.
    static let connectionCeiling = 1 << 20

    init(reading node: YAMLNode?, defaults: DefaultPaths, base: String, diagnostics: inout ConfigDiagnostics) {
        self.init(path: defaults.socketPath)
        let fields = node.flatMap { diagnostics.fields(of: $0, in: "socket", known: Self.keys) }
        if fields?["path"] == nil, let problem = defaults.socketVariableProblem {
            // The default decides the socket here, and the environment's choice is unusable: say so now, not as
            // a bind error about some path relative to wherever the daemon was started.
            diagnostics.report(ConfigError(.invalidValue, at: node?.location ?? .start(of: base), problem))
        }
        guard let fields else { return }
        if let value = fields["path"], let path = diagnostics.string(value, "socket.path", expected: "a socket path") {
            self.path = ConfigLoader.resolve(path, relativeTo: base)
        }
        if let value = fields["mode"] {
            let text = value.scalar ?? ""
            let octal = text.count >= 3 && text.count <= 4 && text.allSatisfy { ("0"..."7").contains($0) }
            if !value.isExplicitString, value.scalar != nil, !value.isNull {
                diagnostics.report(
                    .typeMismatch, at: value,
                    "write 'socket.mode' in quotes, like \"0660\": unquoted, \(text) is a number to YAML "
                        + "and its octal meaning would be lost")
            } else if !octal {
                diagnostics.report(
                    .invalidValue, at: value,
                    "expected an octal file mode in quotes like \"0660\" for 'socket.mode', "
                        + "found \(value.kindDescription)")
            } else if let mode = UInt32(text, radix: 8), mode <= 0o777, mode & 0o600 == 0o600 {
                self.mode = mode
            } else {
                diagnostics.report(
                    .invalidValue, at: value,
                    "'socket.mode' \"\(text)\" must be a permission mode (at most 0777) that lets the owner "
                        + "read and write, like \"0660\"")
            }
        }
        if let value = fields["admin_uids"],
            let items = diagnostics.sequence(value, "socket.admin_uids", expected: "a list of uids like [1000]")
        {
            adminUIDs = items.compactMap { item in
                guard item.isExplicitString == false, let text = item.scalar, let uid = UInt32(text) else {
                    diagnostics.report(
                        .typeMismatch, at: item,
                        "expected a numeric uid like 1000 in 'socket.admin_uids', found \(item.kindDescription)")
                    return nil
                }
                return uid
            }
        }
        if let value = fields["max_connections"],
            let count = Self.connectionCount(value, "socket.max_connections", &diagnostics)
        {
            maxConnections = count
        }
        let perUID = fields["max_connections_per_uid"]
        if let perUID, let count = Self.connectionCount(perUID, "socket.max_connections_per_uid", &diagnostics) {
            maxConnectionsPerUID = count
        }
        if maxConnectionsPerUID > maxConnections, let node = perUID ?? fields["max_connections"] {
            diagnostics.report(
                .invalidValue, at: node,
                "'socket.max_connections_per_uid' (\(maxConnectionsPerUID)) must not exceed 'socket.max_connections' "
                    + "(\(maxConnections)); lower it or raise max_connections")
        }
    }

    private static func connectionCount(
        _ node: YAMLNode, _ key: String, _ diagnostics: inout ConfigDiagnostics
    ) -> Int? {
        guard node.isExplicitString == false, let text = node.scalar, let value = Int(text), value > 0,
            value <= connectionCeiling
        else {
            diagnostics.report(
                .invalidValue, at: node,
                "expected a number of connections from 1 to \(connectionCeiling) for '\(key)', "
                    + "found \(node.kindDescription)")
            return nil
        }
        return value
    }
}
