/// The socket `showcasectl` will connect to, and the default places it looked at and found empty.
///
/// A member of group `showcase` runs `showcasectl` as an ordinary user, whose default (`DefaultPaths`) is the
/// per-user socket, while the daemon they mean is the system service's. Keeping the places tried lets
/// the not-running message name every one of them instead of leaving the user to guess which.
struct SocketLocation: Sendable, Equatable {
    /// The path to connect to.
    let path: String
    /// Other default paths that held no socket (empty for `--socket`, `--config` and systemd).
    let alsoTried: [String]

    init(_ path: String, alsoTried: [String] = []) {
        self.path = path
        self.alsoTried = alsoTried
    }

    /// "PATH" or "PATH or OTHER", for "no socket at …".
    var triedDescription: String {
        ([path] + alsoTried).joined(separator: " or ")
    }
}
