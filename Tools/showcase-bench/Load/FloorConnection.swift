/// A floor client: how many replies it is owed and how far into the current one the last write got.
final class FloorConnection {
    let fd: Int32
    var pendingReplies = 0
    var offset = 0
    /// Whether EPOLLOUT is armed for it (replies held back by a full socket buffer).
    var waitingToWrite = false

    init(fd: Int32) { self.fd = fd }
}
