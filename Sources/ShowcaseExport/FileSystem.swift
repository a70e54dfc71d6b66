import CSystem
import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The few POSIX file operations the export needs, each reporting failure as the system's reason (`No space left
/// on device`) instead of throwing, and remembering which directories changed so each is fsynced once at the end.
struct FileSystem {
    /// What removing a file came to.
    enum Removal: Equatable {
        case removed
        case alreadyGone
        case failed(String)
    }

    /// Why a file operation failed, as the system words it.
    struct Failure: Error {
        var reason: String
    }

    /// Directories known to exist (saves repeating mkdir for every document of a storefront).
    private var existing = Set<String>()
    /// Directories whose entries changed (a rename, an unlink, a new subdirectory): fsynced by ``syncDirectories()``.
    private var changed = Set<String>()
    /// Open descriptors of the versions ``commit(_:to:)`` replaced, until ``releaseReplaced()``.
    private var replaced: [Int32] = []

    /// Creates `path` and its missing parents (mode 0755); with `base`, only the part below it. Nil on success,
    /// else why not.
    mutating func makeDirectories(_ path: String, below base: String?) -> String? {
        if existing.contains(path) { return nil }
        let components = path.split(separator: "/").map(String.init)
        var current = path.hasPrefix("/") ? "" : "."
        for component in components {
            let parent = current.isEmpty ? "/" : current
            current += "/" + component
            if let base, base == current || base.hasPrefix(current + "/") { continue }
            if existing.contains(current) { continue }
            if mkdir(current, 0o755) == 0 {
                // mkdir applies the umask (the unit's UMask=0077 would make it 0700): a web server running as
                // another user must be able to traverse the tree.
                chmod(current, 0o755)
                changed.insert(parent)
            } else if errno == EEXIST {
                var info = stat()
                guard stat(current, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    return "\(current) exists and is not a directory"
                }
            } else {
                return "\(current): \(Self.reason())"
            }
            existing.insert(current)
        }
        existing.insert(path)
        return nil
    }

    /// The content of `path` when it is a regular file (a symlink, FIFO or directory is not read: nil) of at most
    /// `limit` bytes.
    func readRegularFile(_ path: String, limit: Int) -> Data? { read(path, limit: limit)?.bytes }

    /// The content of `path` when it is a regular file of at most `limit` bytes, with the file's identity as it
    /// was just before the read (so a write during the read shows as another identity on the next look) and
    /// whether that identity was settled (``FileIdentity/isSettled(now:)``).
    func read(_ path: String, limit: Int) -> Read? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 0, info.st_size <= limit else {
            return nil
        }
        let identity = FileIdentity(info)
        let settled = identity.isSettled(now: FileIdentity.now())
        var data = Data(count: Int(info.st_size))
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.read(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        return complete ? Read(bytes: data, identity: identity, settled: settled) : nil
    }

    /// A file's bytes as read, with its identity just before the read and whether that identity was settled.
    struct Read {
        var bytes: Data
        var identity: FileIdentity
        var settled: Bool
    }

    /// The identity of the regular file at `path` (not following a symlink); nil when there is none.
    func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(info)
    }

    /// Whether anything (a file, directory, symlink — even a dangling one) is at `path`.
    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Writes `data` to `path` atomically and durably on its own: ``stage(_:for:)``, fsync, ``commit(_:to:)`` (the
    /// replaced version released at once), then fsync of the directory. For a single file (the manifest); documents are staged in bulk instead.
    mutating func writeAtomically(_ data: Data, to path: String) -> String? {
        let temporary: String
        switch stage(data, for: path) {
        case .success(let staged): temporary = staged
        case .failure(let failure): return failure.reason
        }
        if let failure = Self.sync(file: temporary) {
            unlink(temporary)
            return failure
        }
        if let failure = commit(temporary, to: path) { return failure }
        releaseReplaced()
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        return nil
    }

    /// Writes `data` to a temporary file beside `path` (mode 0644), not yet flushed: the caller flushes every
    /// staged file at once (``syncFileSystem(containing:)``) and then commits each. On failure nothing is left.
    func stage(_ data: Data, for path: String) -> Result<String, Failure> {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = directory + "/." + (path as NSString).lastPathComponent + ".showcase-tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .failure(Failure(reason: Self.reason())) }
        var failure: String?
        if fchmod(fd, 0o644) != 0 { failure = Self.reason() }
        if failure == nil {
            failure = data.withUnsafeBytes { buffer -> String? in
                var offset = 0
                while offset < buffer.count {
                    let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { return Self.reason() }
                    offset += count
                }
                return nil
            }
        }
        if close(fd) != 0, failure == nil { failure = Self.reason() }
        if let failure {
            unlink(temporary)
            return .failure(Failure(reason: failure))
        }
        return .success(temporary)
    }

    /// Flushes everything written to the file system holding `path` with one syncfs(2): a single journal commit
    /// for hundreds of files, where an fsync each would cost one commit per file (~4 ms apiece on ext4).
    func syncFileSystem(containing path: String) -> String? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return Self.reason() }
        defer { close(fd) }
        let result = csys_syncfs(fd)
        return result < 0 ? String(cString: strerror(-result)) : nil
    }

    /// fsync(2) of one file by path; nil on success.
    static func sync(file path: String) -> String? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return reason() }
        defer { close(fd) }
        return fsync(fd) == 0 ? nil : reason()
    }

    /// Renames a staged (and flushed) temporary file over `path`: the moment readers see the new content. On
    /// failure the temporary file is removed and `path` is as it was.
    ///
    /// The version being replaced is held open across the rename, so the rename does not free its blocks:
    /// freeing them is I/O (a discard per file where the file system discards on free: 1.5–3 ms each on the
    /// bench machine, which made publishing 348 files take most of a second) that readers need not wait for.
    /// ``releaseReplaced()`` frees them all at once afterwards.
    mutating func commit(_ temporary: String, to path: String) -> String? {
        let previous = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard rename(temporary, path) == 0 else {
            let failure = Self.reason()
            if previous >= 0 { close(previous) }
            unlink(temporary)
            return failure
        }
        if previous >= 0 {
            replaced.append(previous)
            if replaced.count >= Self.replacedHeldLimit { releaseReplaced() }
        }
        changed.insert((path as NSString).deletingLastPathComponent)
        return nil
    }

    /// Closes the replaced versions ``commit(_:to:)`` held open, which frees them, on several threads: the cost
    /// is the device's latency per file (a discard), which overlaps well (8 threads: 0.12 ms a file instead of 3).
    mutating func releaseReplaced() {
        let descriptors = replaced
        replaced = []
        let workers = min(Self.releaseThreads, descriptors.count)
        guard workers > 1 else {
            for descriptor in descriptors { close(descriptor) }
            return
        }
        let done = DispatchGroup()
        for worker in 0..<workers {
            done.enter()
            Thread {
                for index in stride(from: worker, to: descriptors.count, by: workers) { close(descriptors[index]) }
                done.leave()
            }.start()
        }
        done.wait()
    }

    /// At most this many replaced files are held open at once (a larger pass releases them in batches), well
    /// below the unit's file-descriptor limit.
    static let replacedHeldLimit = 256
    /// Threads that close replaced files.
    static let releaseThreads = 8

    /// Removes a staged file that will not be committed.
    func discard(_ temporary: String) { unlink(temporary) }

    /// Whether any directory's entries changed since the last ``syncDirectories()``.
    var hasChangedDirectories: Bool { !changed.isEmpty }

    /// Forgets the directories waiting for an fsync (a syncfs already made them durable).
    mutating func forgetChangedDirectories() { changed.removeAll() }

    /// Removes the file at `path` (never a directory), then its parent directories up to, not including, `base`
    /// while they are empty (a directory holding anything else stays).
    mutating func remove(_ path: String, below base: String) -> Removal {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT ? .alreadyGone : .failed(Self.reason())
        }
        guard info.st_mode & S_IFMT != S_IFDIR else { return .failed("it is a directory now") }
        guard unlink(path) == 0 else { return .failed(Self.reason()) }
        var directory = (path as NSString).deletingLastPathComponent
        changed.insert(directory)
        while directory.hasPrefix(base + "/"), rmdir(directory) == 0 {
            existing.remove(directory)
            changed.remove(directory)
            directory = (directory as NSString).deletingLastPathComponent
            changed.insert(directory)
        }
        return .removed
    }

    /// Fsyncs every directory whose entries changed, so renames and removals survive a power cut.
    mutating func syncDirectories() {
        for directory in changed.sorted() {
            let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            fsync(fd)
            close(fd)
        }
        changed.removeAll()
    }

    /// The current `errno` as the system words it.
    private static func reason() -> String { String(cString: strerror(errno)) }
}
