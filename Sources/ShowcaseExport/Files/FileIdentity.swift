import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// What `stat(2)` says about a file, enough to tell that it is still the very file the writer saw: the same inode
/// on the same device, with the same size, modification time and change time.
///
/// The change time (ctime) is the part an outside edit cannot hide: `touch -d` or `utimensat` can put the mtime
/// back, but setting any time, writing or renaming moves the ctime to now, and no call sets it.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// mtime in nanoseconds since the epoch.
    var modified: Int64
    /// ctime in nanoseconds since the epoch.
    var changed: Int64

    /// The identity in `info` (from stat or fstat).
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }

    /// How long before "now" a file's ctime must lie for its identity to be trusted later.
    ///
    /// File times come from the kernel's coarse clock (one tick: 1–10 ms), so a second edit within the tick of
    /// the first leaves every time as it was; after a tick has passed since the ctime, any later change shows.
    /// The margin is many ticks, so a wall clock adjusted slightly backwards cannot defeat it either.
    static let settleNanoseconds: Int64 = 100_000_000

    /// Whether a later change to the file must show in its identity: its ctime lies at least
    /// ``settleNanoseconds`` before `now` (the pass's wall clock, read after the stat). Compared in floating point,
    /// so no clock value, however far off, can trap.
    func isSettled(now: Date) -> Bool {
        Double(changed) <= now.timeIntervalSince1970 * 1e9 - Double(Self.settleNanoseconds)
    }
}
