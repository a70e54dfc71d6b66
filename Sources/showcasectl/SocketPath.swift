@preconcurrency import Glibc

/// Where `showcasectl` looks for the daemon's socket when `--socket` is not given (SPEC §2).
enum SocketPath {
    /// `$RUNTIME_DIRECTORY/showcased.sock` under systemd, `/run/showcase/showcased.sock` as root,
    /// else `$XDG_RUNTIME_DIR/showcase/showcased.sock` — the same rule the daemon binds by.
    static func resolve(_ options: GlobalOptions, environment: [String: String]) -> String {
        if let explicit = options.socketPath { return explicit }
        if let runtime = environment["RUNTIME_DIRECTORY"], !runtime.isEmpty {
            return runtime.split(separator: ":").first.map { "\($0)/showcased.sock" } ?? runtime
        }
        if getuid() == 0 { return "/run/showcase/showcased.sock" }
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
        return base + "/showcase/showcased.sock"
    }
}
