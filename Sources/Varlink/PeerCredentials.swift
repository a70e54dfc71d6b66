/// Who is on the other end of a Unix socket, as the kernel reported it (SO_PEERCRED) when the
/// connection was accepted. Handlers use it for authorization; it cannot be forged by the peer.
public struct PeerCredentials: Sendable, Hashable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Credentials for a socket whose peer could not be identified: uid/gid `UInt32.max`
    /// (the kernel's "nobody" overflow id), so authorization checks fail closed.
    public static let unknown = PeerCredentials(pid: 0, uid: .max, gid: .max)
}
