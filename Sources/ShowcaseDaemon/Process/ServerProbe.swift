@preconcurrency import Glibc
import Varlink

/// Asks the Varlink event loop itself whether it still answers, so `WATCHDOG=1` means "clients are being
/// served" rather than "some timer in the process still fires".
///
/// Each probe hands the server one end of a fresh socketpair and calls `org.varlink.service.GetInfo` on the
/// other: the reply can only come from the loop thread, so a loop stuck in a handler (or deadlocked) misses
/// the deadline and systemd's watchdog restarts the service. A fresh pair per probe keeps the probe clear of
/// the idle timeout and of the connection cap's accounting for real clients.
public struct ServerProbe: Sendable {
    let server: VarlinkServer
    let timeout: Duration

    /// A probe of `server` that gives the loop `timeout` to answer.
    public init(server: VarlinkServer, timeout: Duration) {
        self.server = server
        self.timeout = timeout
    }

    /// True when the loop answered a call within the timeout. When no socketpair can be made (descriptors
    /// exhausted) it answers true: that is a resource problem the log shows, not a hung loop to restart.
    public func isAnswering() -> Bool {
        var descriptors: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0 else { return true }
        server.serve(connectedDescriptor: descriptors[0])
        let client = VarlinkClient(connectedDescriptor: descriptors[1], timeout: timeout)
        defer { client.close() }
        do {
            _ = try client.callSync("org.varlink.service.GetInfo")
            return true
        } catch {
            return false
        }
    }
}
