import DirectorySafety
import FoundationEssentials
@preconcurrency import Glibc

/// Exclusive use of a cache directory by one process: the daemon or a `showcased --once` run (SPEC §17), never
/// two at once, since both rewrite the same roster files and neither knows of the other's refreshes.
///
/// The lock is `flock(LOCK_EX | LOCK_NB)` on `.showcased.lock` in the directory, opened with `O_NOFOLLOW` and
/// `O_NONBLOCK` through the directory's own descriptor (SPEC §20). What is there is as untrusted as the cache: the
/// lock must be a regular file with one link, so a symlink, directory, FIFO or hard link planted at its name is
/// refused (exit 71, naming it), never followed, waited on, written through or run without. The holder writes its
/// pid into the file — only after `fstat` has shown one link, so no outside file is ever truncated — and the one
/// refused can name it. The kernel drops the lock when the holder exits, however it exits
/// (`kill -9` included): a stale lock file never blocks the next run, and nothing has to remove it.
final class CacheLock: Sendable {
    /// The lock file's name inside the cache directory (not a name the cache itself writes or lists).
    static let fileName = ".showcased.lock"

    /// Why the directory could not be locked.
    struct Refusal: Error, Sendable, CustomStringConvertible {
        /// Whether the caller must not go on: another process holds the lock, or something other than a
        /// single-link regular file stands at its name. False only when the lock file could not be made at all (a
        /// read-only cache: the caller goes on unlocked, as it would serve from memory).
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
        let fd = openat(
            folder.descriptor, fileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o644)
        guard fd >= 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            // ELOOP: a symlink (O_NOFOLLOW); EISDIR: a directory; ENXIO: a socket or a FIFO nobody reads.
            guard code == ELOOP || code == EISDIR || code == ENXIO || code == EWOULDBLOCK else {
                throw Refusal(isHeld: false, description: "cannot open the lock file \(lockPath): \(reason)")
            }
            throw Refusal(isHeld: true, description: notAFile(lockPath, kind: Self.kind(at: folder, code: code)))
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 else {
            let kind =
                status.st_mode & S_IFMT == S_IFREG
                ? "a hard link (\(status.st_nlink) names for one file)" : Self.describe(mode: status.st_mode)
            close(fd)
            throw Refusal(isHeld: true, description: notAFile(lockPath, kind: kind))
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

    /// The refusal of a lock name held by something other than a single-link regular file.
    private static func notAFile(_ lockPath: String, kind: String) -> String {
        "the cache lock \(lockPath) is \(kind), not a regular file with one link; something other than "
            + "showcased made it: remove it (showcased makes the file itself)"
    }

    /// What stands at the lock's name when opening it failed with `code`.
    private static func kind(at folder: TrustedDirectory, code: Int32) -> String {
        var status = stat()
        guard fstatat(folder.descriptor, fileName, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            return code == EISDIR ? "a directory" : "not a regular file"
        }
        return describe(mode: status.st_mode)
    }

    /// "a directory", "a symbolic link", … for a file type in `mode`.
    private static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
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
