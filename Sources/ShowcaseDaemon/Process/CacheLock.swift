import DirectorySafety
import FoundationEssentials
@preconcurrency import Glibc

/// Exclusive use of a cache directory by one process: the daemon or a `showcased --once` run (SPEC §17), never
/// two at once, since both rewrite the same roster files and neither knows of the other's refreshes.
///
/// The lock is `flock(LOCK_EX | LOCK_NB)` on `.showcased.lock` in the directory, opened with `O_NOFOLLOW` through
/// the directory's own descriptor (a link planted there is refused, not followed). The holder writes its pid into
/// the file, so the one refused can name it. The kernel drops the lock when the holder exits, however it exits
/// (`kill -9` included): a stale lock file never blocks the next run, and nothing has to remove it.
final class CacheLock: Sendable {
    /// The lock file's name inside the cache directory (not a name the cache itself writes or lists).
    static let fileName = ".showcased.lock"

    /// Why the directory could not be locked.
    struct Refusal: Error, Sendable, CustomStringConvertible {
        /// Whether another process holds the lock (the caller must not go on); false when the lock file could
        /// not be made at all (a read-only cache: the caller goes on unlocked, as it would serve from memory).
        var isHeld: Bool
        /// The holder's pid as it wrote it (nil when it has not written it yet, or nobody holds the lock).
        var holder: Int32?
        /// The sentence a user sees.
        var description: String

        init(isHeld: Bool, holder: Int32? = nil, description: String) {
            self.isHeld = isHeld
            self.holder = holder
            self.description = description
        }
    }

    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Takes the lock of the cache directory at `path` (made, like the cache makes it, when missing) at once, or
    /// throws without waiting: another process holds it, or the file cannot be made.
    static func acquire(directory path: String) throws(Refusal) -> CacheLock {
        let folder: TrustedDirectory
        do { folder = try TrustedDirectory.open(path, creating: 0o755) } catch {
            throw Refusal(isHeld: false, description: "cannot lock the cache directory: \(error)")
        }
        let lockPath = folder.path + "/" + fileName
        let fd = openat(folder.descriptor, fileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw Refusal(isHeld: false, description: "cannot open the lock file \(lockPath): \(reason)")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = code == EWOULDBLOCK ? readPID(fd) : nil
            close(fd)
            guard code == EWOULDBLOCK else {
                throw Refusal(
                    isHeld: false, description: "cannot lock \(lockPath): \(String(cString: strerror(code)))")
            }
            let who = holder.map { "process \($0)" } ?? "another process"
            throw Refusal(
                isHeld: true, holder: holder,
                description: "the cache directory \(path) is in use by \(who) (a showcased daemon or another "
                    + "--once run); stop it or give this run its own --cache-dir")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return CacheLock(descriptor: fd)
    }

    /// The pid the holder wrote, if the file holds one.
    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self).trimmingWhitespaceAndNewlines()
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
