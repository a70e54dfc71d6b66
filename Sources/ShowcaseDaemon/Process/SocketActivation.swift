import Foundation
@preconcurrency import Glibc

/// systemd socket activation (`LISTEN_FDS`/`LISTEN_PID`): the listening socket arrives as fd 3.
///
/// With activation, systemd owns the socket file, so the daemon must neither create nor remove it and
/// can be started lazily on the first connection.
public enum SocketActivation {
    /// The first passed descriptor (3) when systemd passed sockets to *this* process, else nil.
    /// Unsets the variables so child processes do not believe they were activated too.
    public static func takeListeningDescriptor(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1
        else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }
}
