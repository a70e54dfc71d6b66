import CSystem
import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// An open directory whose entries are reached only through its descriptor, never by a path that could be
/// swapped: the one way the daemon touches a tree that someone else may also write in (the export, the state and
/// cache directories, the metrics textfile's folder).
///
/// Whoever else can write in the tree may plant a symlink, a FIFO, a device, a hard link or a foreign file
/// anywhere, at any moment. Against that every operation here:
///
/// - takes a single name, relative to this directory's descriptor (`openat`, `mkdirat`, `renameat`, `unlinkat`,
///   `fstatat`), so a swapped parent can never redirect it: the descriptor stays the directory it was opened as;
/// - never follows a link: subdirectories are opened with `O_NOFOLLOW|O_DIRECTORY`, files with `O_NOFOLLOW`;
/// - never blocks on what it opens: files are opened `O_NONBLOCK` and checked with `fstat` to be regular files
///   before a byte is read, so a FIFO or device is refused at once;
/// - creates files exclusively (`O_CREAT|O_EXCL`): an existing name, whatever it is, is never truncated or
///   written through, and modes are set with `fchmod` on the open descriptor, never by path.
///
/// What is found where it should not be comes back as ``DirectoryError`` with ``DirectoryError/Code/unexpected``
/// and the entry's ``EntryKind``, for the caller to report and leave alone.
public final class TrustedDirectory: @unchecked Sendable {
    /// The open directory (`O_DIRECTORY|O_CLOEXEC`), closed when this value goes away. Immutable after init.
    public let descriptor: Int32
    /// The path it was opened as, for messages only: nothing is ever opened by this path again.
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens the directory at `path`, an operator's configured path (every component of it is theirs, so links
    /// in it are followed, as the operator set them up). With `creating`, missing directories along it are made
    /// with `mode`, set on each one's descriptor whatever the umask, or with `applyingUmask`, less the umask.
    public static func open(_ path: String, creating mode: mode_t? = nil, applyingUmask: Bool = false)
        throws(DirectoryError) -> TrustedDirectory
    {
        if let mode, access(path, F_OK) != 0 {
            var current = path.hasPrefix("/") ? "" : "."
            for component in path.split(separator: "/") {
                current += "/" + component
                guard mkdir(current, applyingUmask ? mode : 0o700) == 0 else {
                    if errno == EEXIST { continue }
                    let code = errno
                    throw DirectoryError(.system(code), path: current, "cannot create \(current): \(reason(code))")
                }
                // Widened on its descriptor (the umask would leave a web server unable to traverse it), unless the
                // umask is to decide (a private cache under the unit's UMask=0077).
                if applyingUmask { continue }
                let made = Glibc.open(current, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if made >= 0 {
                    fchmod(made, mode)
                    close(made)
                }
            }
        }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOTDIR {
                throw DirectoryError(.system(code), path: path, "\(path) exists and is not a directory")
            }
            throw DirectoryError(.system(code), path: path, "cannot open the directory \(path): \(reason(code))")
        }
        return TrustedDirectory(descriptor: fd, path: path)
    }

    /// The subdirectory `name`, opened without following a link; with `mode`, made (and given `mode` on its
    /// descriptor) when missing. A link, file, FIFO or device at `name` is ``DirectoryError/Code/unexpected``.
    public func subdirectory(_ name: String, creating mode: mode_t? = nil) throws(DirectoryError)
        -> TrustedDirectory
    {
        try Self.check(name, in: self)
        let child = self.child(name)
        var fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        var made = false
        if fd < 0, errno == ENOENT, let mode {
            // Made 0700 and widened on its descriptor: between mkdirat and openat a racer can swap the name, which
            // openat then refuses (a link) or opens (their own directory, inside the tree): nothing outside moves.
            if mkdirat(descriptor, name, 0o700) == 0 {
                made = true
            } else if errno != EEXIST {
                let code = errno
                throw DirectoryError(.system(code), path: child, "cannot create \(child): \(Self.reason(code))")
            }
            fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd >= 0, made, fchmod(fd, mode) != 0 {
                let code = errno
                close(fd)
                throw DirectoryError(
                    .system(code), path: child, "cannot set the mode of \(child): \(Self.reason(code))")
            }
        }
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw DirectoryError(.missing, path: child, "\(child) does not exist") }
            if code == ELOOP || code == ENOTDIR, let entry = entry(name) {
                throw DirectoryError(
                    .unexpected(entry.kind), path: child,
                    "\(child) is \(entry.kind.phrase), not a directory showcased made; it is left alone")
            }
            throw DirectoryError(.system(code), path: child, "cannot open \(child): \(Self.reason(code))")
        }
        return TrustedDirectory(descriptor: fd, path: child)
    }

    /// What is at `name`, without following a link; nil when nothing is.
    public func entry(_ name: String) -> Entry? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return Entry(info)
    }

    /// The bytes of the regular file `name`, at most `limit` of them, with its identity as `fstat` gave it just
    /// before the read. A link, FIFO, device or directory there is never opened for reading (nor waited on).
    public func read(_ name: String, limit: Int) -> Result<FileContents, DirectoryError> {
        let target = child(name)
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return .failure(DirectoryError(.missing, path: target, "\(target) does not exist")) }
            if code == ELOOP, let entry = entry(name) { return .failure(unexpected(entry, at: target)) }
            return .failure(DirectoryError(.system(code), path: target, "cannot open \(target): \(Self.reason(code))"))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            return .failure(DirectoryError(.system(code), path: target, "cannot stat \(target): \(Self.reason(code))"))
        }
        let found = Entry(info)
        guard found.kind == .regular else { return .failure(unexpected(found, at: target)) }
        guard info.st_size >= 0, info.st_size <= limit else {
            return .failure(
                DirectoryError(.tooLarge, path: target, "\(target) is larger than \(limit) bytes; it is not read"))
        }
        var bytes = Data(count: Int(info.st_size))
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.read(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        guard complete else {
            return .failure(DirectoryError(.system(EIO), path: target, "\(target) changed size while it was read"))
        }
        return .success(FileContents(bytes: bytes, entry: found))
    }

    /// Creates the file `name`, which must not exist (`O_CREAT|O_EXCL|O_NOFOLLOW`: whatever is there already, a
    /// link, a FIFO or a hard link to a file elsewhere, is ``DirectoryError/Code/exists`` and untouched), with
    /// `bytes` and `mode` (set by `fchmod`, whatever the umask; with `applyingUmask`, `mode` less the umask, as
    /// `open(2)` makes it). Not flushed: see ``syncFile(_:)``. On failure nothing of it is left.
    public func create(_ name: String, bytes: Data, mode: mode_t = 0o644, applyingUmask: Bool = false)
        -> DirectoryError?
    {
        let target = child(name)
        let fd = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST { return DirectoryError(.exists, path: target, "\(target) already exists") }
            return DirectoryError(.system(code), path: target, "cannot create \(target): \(Self.reason(code))")
        }
        var failure: Int32 = applyingUmask || fchmod(fd, mode) == 0 ? 0 : errno
        if failure == 0 {
            failure = bytes.withUnsafeBytes { buffer -> Int32 in
                var offset = 0
                while offset < buffer.count {
                    let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { return count < 0 ? errno : ENOSPC }
                    offset += count
                }
                return 0
            }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        guard failure == 0 else {
            unlinkat(descriptor, name, 0)
            return DirectoryError(.system(failure), path: target, "cannot write \(target): \(Self.reason(failure))")
        }
        return nil
    }

    /// fsync(2) of the regular file `name`.
    public func syncFile(_ name: String) -> DirectoryError? {
        let target = child(name)
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            return DirectoryError(.system(code), path: target, "cannot open \(target): \(Self.reason(code))")
        }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            let code = errno
            return DirectoryError(.system(code), path: target, "cannot flush \(target): \(Self.reason(code))")
        }
        return nil
    }

    /// Opens the regular file `name` for reading only, to hold it (nil for anything else or nothing there).
    public func holdFile(_ name: String) -> Int32? {
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Renames `name` to `newName`, both in this directory (`renameat`): whatever was at `newName`, a link or a
    /// hard link included, is replaced as a name, never followed or written through.
    public func rename(_ name: String, to newName: String) -> DirectoryError? {
        guard renameat(descriptor, name, descriptor, newName) == 0 else {
            let code = errno
            let target = child(newName)
            return DirectoryError(.system(code), path: target, "cannot rename over \(target): \(Self.reason(code))")
        }
        return nil
    }

    /// Removes the name `name` (`unlinkat`, so a link goes, never what it points to); a directory is not removed
    /// (``DirectoryError/Code/unexpected``). Nothing there is ``DirectoryError/Code/missing``.
    public func removeFile(_ name: String) -> DirectoryError? {
        let target = child(name)
        guard let entry = entry(name) else {
            return DirectoryError(.missing, path: target, "\(target) does not exist")
        }
        guard entry.kind != .directory else { return unexpected(entry, at: target) }
        guard unlinkat(descriptor, name, 0) == 0 else {
            let code = errno
            if code == ENOENT { return DirectoryError(.missing, path: target, "\(target) does not exist") }
            return DirectoryError(.system(code), path: target, "cannot remove \(target): \(Self.reason(code))")
        }
        return nil
    }

    /// Removes the subdirectory `name` when it is an empty directory (never a link); whether it did.
    @discardableResult
    public func removeEmptyDirectory(_ name: String) -> Bool { unlinkat(descriptor, name, AT_REMOVEDIR) == 0 }

    /// fsync(2) of this directory, making the renames and removals in it durable.
    @discardableResult
    public func sync() -> Bool { fsync(descriptor) == 0 }

    /// syncfs(2) of the file system holding this directory: one flush for every file written to it.
    public func syncFileSystem() -> DirectoryError? {
        let result = csys_syncfs(descriptor)
        guard result >= 0 else {
            return DirectoryError(.system(-result), path: path, "cannot flush \(path): \(Self.reason(-result))")
        }
        return nil
    }

    /// `path/name`, for messages.
    public func child(_ name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

    private func unexpected(_ entry: Entry, at target: String) -> DirectoryError {
        DirectoryError(
            .unexpected(entry.kind), path: target,
            "\(target) is \(entry.kind.phrase) where showcased expects its own \(entry.kind == .directory ? "file" : "file or directory"); it is left alone"
        )
    }

    /// A single, non-empty name other than `.` and `..`, without `/` or NUL.
    private static func check(_ name: String, in directory: TrustedDirectory) throws(DirectoryError) {
        guard !name.isEmpty, name != ".", name != "..", !name.utf8.contains(UInt8(ascii: "/")),
            !name.utf8.contains(0)
        else {
            throw DirectoryError(
                .system(EINVAL), path: directory.child(name), "'\(name)' is not a single file name")
        }
    }

    static func reason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}
