import FoundationEssentials
@preconcurrency import Glibc

/// systemd socket activation (`LISTEN_FDS`/`LISTEN_PID`): the listening socket arrives as fd 3.
///
/// With activation, systemd owns the socket file, so the daemon must neither create nor remove it and
/// can be started lazily on the first connection.
public enum SocketActivation {
    /// The first passed descriptor (3) when systemd passed sockets to *this* process, else nil.
    /// Unsets the variables so child processes do not believe they were activated too.
    ///
    /// A `LISTEN_PID` or `LISTEN_FDS` that is not a number in range (a pid; 1 to 65536 descriptors) is logged on
    /// `log` and ignored — the daemon binds its own socket — never a crash.
    public static func takeListeningDescriptor(
        environment: [String: String] = ProcessInfo.processInfo.environment, log: DaemonLog = DaemonLog()
    ) -> Int32? {
        guard let pidText = environment["LISTEN_PID"] else { return nil }
        guard let pid = Int32(pidText), pid > 0 else {
            log.warning("ignoring LISTEN_PID=\(pidText.prefix(40)): not a process id; binding socket.path instead")
            return nil
        }
        guard pid == getpid() else { return nil }  // meant for another process: not an error
        let countText = environment["LISTEN_FDS"] ?? ""
        guard let count = Int(countText), (1...65536).contains(count) else {
            log.warning(
                "ignoring LISTEN_FDS=\(countText.prefix(40)): not a descriptor count from 1 to 65536; "
                    + "binding socket.path instead")
            return nil
        }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }
}
