/// Who is on the other end of a Unix socket, as the kernel reported it (SO_PEERCRED) when the
/// connection was accepted. Handlers use it for authorization; it cannot be forged by the peer.
public struct PeerCredentials: Sendable, Hashable {
    /// The peer's process id at connect time; it may have exited and the pid been reused, so never authorize by it.
    public let pid: Int32
    /// The peer's effective uid: what authorization checks.
    public let uid: UInt32
    /// The peer's effective gid.
    public let gid: UInt32

    /// Credentials as given; the server takes real ones from SO_PEERCRED when it accepts a connection.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Credentials for a socket whose peer could not be identified: uid/gid `UInt32.max`
    /// (the kernel's "nobody" overflow id), so authorization checks fail closed.
    public static let unknown = PeerCredentials(pid: 0, uid: .max, gid: .max)
}
