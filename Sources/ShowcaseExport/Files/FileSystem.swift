import DirectorySafety
import Dispatch
import FoundationEssentials
import Locking

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The file operations of one export pass inside `v1/`, every one through ``TrustedDirectory`` (relative to an open
/// directory's descriptor, never following a link, never blocking on a file), each reporting failure as a value,
/// and remembering which directories changed so each is flushed once at the end.
///
/// Paths are relative to `v1/` (`<host>/<storefront>/ios.json`); only the tree's root was opened by a path.
final class FileSystem {
    /// What removing a file came to.
    enum Removal: Equatable {
        case removed
        case alreadyGone
        case failed(Failure)
    }

    /// Why a file operation failed: the system's reason, and for something planted where our own file or directory
    /// belongs, the entry concerned (reported as ``ExportError/Code/unexpectedEntry``).
    struct Failure: Error, Equatable {
        var reason: String
        /// The absolute path of the unexpected entry, when that is the failure.
        var unexpected: String?
        /// Whether the failure is that nothing is there.
        var missing = false

        init(_ error: DirectoryError) {
            reason = error.message
            unexpected = error.isUnexpectedEntry ? error.path : nil
            missing = error.code == .missing
        }

        init(reason: String) { self.reason = reason }
    }

    /// `v1/`, opened once per pass.
    let root: TrustedDirectory
    /// Directories opened this pass, by path relative to `v1/` ("" is `v1/` itself).
    private var directories: [String: TrustedDirectory]
    /// The folder ``parent(of:creating:)`` found last.
    private var lastFolder: (path: String, directory: TrustedDirectory)?
    /// Directories whose entries changed (a rename, an unlink, a new subdirectory): flushed by ``syncDirectories()``.
    private var changed = Set<String>()
    /// Open descriptors of the versions ``commit(_:to:)`` replaced, until ``releaseReplaced()``.
    private var replaced: [Int32] = []

    /// The tree `<directory>/<tree>` (`v1`, or the site's `site`): `directory` is the operator's (made when missing),
    /// `tree` is opened without following a link and made 0755 when missing.
    init(directory: String, tree: String = "v1") throws(DirectoryError) {
        let top = try TrustedDirectory.open(directory, creating: 0o755)
        root = try top.subdirectory(tree, creating: 0o755)
        directories = ["": root]
    }

    /// The directory `relative` (below `v1/`), opened component by component without following a link; with
    /// `creating`, missing ones are made (mode 0755: a web server running as another user must traverse them).
    func directory(_ relative: String, creating: Bool) -> Result<TrustedDirectory, Failure> {
        if let known = directories[relative] { return .success(known) }
        var current = root
        var walked = ""
        for component in relative.split(separator: "/") {
            let next = walked.isEmpty ? String(component) : walked + "/" + component
            if let known = directories[next] {
                current = known
            } else {
                let existed = current.entry(String(component)) != nil
                do {
                    current = try current.subdirectory(String(component), creating: creating ? 0o755 : nil)
                } catch {
                    return .failure(Failure(error))
                }
                if !existed { changed.insert(walked) }
                if directories.count >= Self.directoriesHeldLimit {
                    // Each holds a descriptor: a tree of 20 hosts × 173 storefronts must not need 3,500 of them.
                    // Documents are visited in path order, so the folders still needed are reopened rarely.
                    directories = directories.filter { $0.key.isEmpty || next.hasPrefix($0.key + "/") }
                }
                directories[next] = current
            }
            walked = next
        }
        return .success(current)
    }

    /// How many opened directories are kept now (each holds a descriptor).
    var heldDirectories: Int { directories.count }

    /// The directory holding `relative` and the file's own name.
    private func parent(of relative: String, creating: Bool) -> Result<(TrustedDirectory, String), Failure> {
        // A pass visits a folder's files one after another: the last folder is looked up without hashing.
        if let last = lastFolder, let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")),
            relative.utf8[..<slash].elementsEqual(last.path.utf8)
        {
            return .success((last.directory, String(relative[relative.index(after: slash)...])))
        }
        let (folder, name) = Self.split(relative)
        let found = directory(folder, creating: creating)
        if case .success(let directory) = found { lastFolder = (folder, directory) }
        return found.map { ($0, name) }
    }

    /// The content of the regular file `relative` (a link, FIFO or directory is never read: nil) of at most `limit`
    /// bytes, with the file's identity as it was just before the read (so a write during the read shows as another
    /// identity on the next look). Whether that identity was settled is for ``ExistingFiles`` to judge, by its clock.
    func read(_ relative: String, limit: Int) -> Read? {
        guard case .success(let (folder, name)) = parent(of: relative, creating: false),
            case .success(let contents) = folder.read(name, limit: limit)
        else { return nil }
        let identity = FileIdentity(contents.entry.info)
        return Read(bytes: contents.bytes, identity: identity, settled: false)
    }

    /// A file's bytes as read, with its identity just before the read and whether that identity was settled.
    struct Read {
        var bytes: Data
        var identity: FileIdentity
        /// ``FileIdentity/isSettled(now:)`` as ``ExistingFiles`` found it when it read the file; false until then.
        var settled: Bool
    }

    /// The identity of the regular file at `relative` (not following a symlink); nil when there is none.
    func identity(of relative: String) -> FileIdentity? {
        guard case .success(let (folder, name)) = parent(of: relative, creating: false),
            let entry = folder.entry(name), entry.kind == .regular
        else { return nil }
        return FileIdentity(entry.info)
    }

    /// The identity of the regular file at `relative`, by one `fstatat` from the tree's root: for checking a file
    /// against the identity this writer remembers of it, and for nothing else.
    ///
    /// Unlike every other call here, a link among `relative`'s folders is followed (the file itself is not). That is
    /// harmless for what it is used for: an identity names the device, inode, size, mtime and ctime, so a match
    /// means the very inode the writer left, untouched — whatever path led to it — and anything else is a mismatch,
    /// after which the caller goes the descriptor-relative way (``identity(of:)``, ``read(_:limit:)``). It saves
    /// opening each of a large site's folders in every pass just to see that nothing in them changed.
    func rememberedIdentity(of relative: String) -> FileIdentity? {
        guard let entry = root.entry(relative), entry.kind == .regular else { return nil }
        return FileIdentity(entry.info)
    }

    /// Whether anything (a file, directory, symlink — even a dangling one) is at `relative`. A parent folder that
    /// cannot be opened counts as nothing there: writing will report why.
    func exists(_ relative: String) -> Bool {
        guard case .success(let (folder, name)) = parent(of: relative, creating: false) else { return false }
        return folder.entry(name) != nil
    }

    /// Writes `data` to `relative` atomically and durably on its own: ``stage(_:for:)``, fsync, ``commit(_:to:)``
    /// (the replaced version released at once), then fsync of the directory. For single files (the manifest);
    /// documents are staged in bulk instead.
    func writeAtomically(_ data: Data, to relative: String) -> Failure? {
        let temporary: String
        switch stage(data, for: relative) {
        case .success(let staged): temporary = staged
        case .failure(let failure): return failure
        }
        if let failure = sync(file: temporary) {
            discard(temporary)
            return failure
        }
        if let failure = commit(temporary, to: relative) { return failure }
        releaseReplaced()
        if case .success(let folder) = directory(Self.split(relative).folder, creating: false) { folder.sync() }
        return nil
    }

    /// Writes `data` to a new temporary file beside `relative` (mode 0644), not yet flushed: the caller flushes every
    /// staged file at once (``syncFileSystem()``) and then commits each. On failure nothing is left.
    ///
    /// The temporary file is created exclusively: a leftover of ours (a regular file of this user with one name, as a
    /// crash leaves it) is removed first; anything else at that name — a FIFO, a link, a hard link to a file
    /// elsewhere — is reported and left alone, never opened, truncated or written through.
    func stage(_ data: Data, for relative: String) -> Result<String, Failure> {
        let folder: TrustedDirectory
        let name: String
        switch parent(of: relative, creating: true) {
        case .success(let found): (folder, name) = found
        case .failure(let failure): return .failure(failure)
        }
        let temporary = "." + name + ".showcase-tmp"
        var failure = folder.create(temporary, bytes: data)
        if failure?.code == .exists, let entry = folder.entry(temporary) {
            guard entry.isOwnSingleFile else {
                let planted = folder.child(temporary)
                let kind =
                    entry.kind == .regular ? "a file with another name elsewhere or another owner" : entry.kind.phrase
                return .failure(
                    Failure(
                        DirectoryError(
                            .unexpected(entry.kind), path: planted,
                            "\(planted), a temporary name of showcased's, is \(kind); it is left alone")))
            }
            _ = folder.removeFile(temporary)
            failure = folder.create(temporary, bytes: data)
        }
        if let failure { return .failure(Failure(failure)) }
        let (directoryPath, _) = Self.split(relative)
        return .success(directoryPath.isEmpty ? temporary : directoryPath + "/" + temporary)
    }

    /// Flushes everything written to the tree's file system with one syncfs(2): a single journal commit for hundreds
    /// of files, where an fsync each would cost one commit per file.
    func syncFileSystem() -> Failure? { root.syncFileSystem().map(Failure.init) }

    /// fsync(2) of one file; nil on success.
    func sync(file relative: String) -> Failure? {
        switch parent(of: relative, creating: false) {
        case .success(let (folder, name)): return folder.syncFile(name).map(Failure.init)
        case .failure(let failure): return failure
        }
    }

    /// Renames a staged (and flushed) temporary file over `relative`: the moment readers see the new content. On
    /// failure the temporary file is removed and `relative` is as it was. A symlink or hard link at `relative` is
    /// replaced as a name (never followed); a FIFO, device, socket or directory there is reported and left alone.
    ///
    /// The version being replaced is held open across the rename, so the rename does not free its blocks:
    /// ``releaseReplaced()`` frees them all at once afterwards, since freeing blocks may wait for the device to
    /// discard them, and a rename must not.
    func commit(_ temporary: String, to relative: String) -> Failure? {
        let folder: TrustedDirectory
        let name: String
        switch parent(of: relative, creating: false) {
        case .success(let found): (folder, name) = found
        case .failure(let failure): return failure
        }
        let staged = Self.split(temporary).name
        if let entry = folder.entry(name), ![.regular, .symbolicLink].contains(entry.kind) {
            _ = folder.removeFile(staged)
            let planted = folder.child(name)
            return Failure(
                DirectoryError(
                    .unexpected(entry.kind), path: planted,
                    "\(planted) is \(entry.kind.phrase) where showcased writes a file; it is left alone"))
        }
        let previous = folder.holdFile(name)
        if let failure = folder.rename(staged, to: name) {
            if let previous { close(previous) }
            _ = folder.removeFile(staged)
            return Failure(failure)
        }
        if let previous {
            replaced.append(previous)
            if replaced.count >= Self.replacedHeldLimit { releaseReplaced() }
        }
        changed.insert(Self.split(relative).folder)
        return nil
    }

    /// Closes the replaced versions ``commit(_:to:)`` held open, which frees them, on several threads: the cost
    /// is the device's latency per file (a discard), which overlaps well.
    func releaseReplaced() {
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
            startDetachedThread {
                for index in stride(from: worker, to: descriptors.count, by: workers) { close(descriptors[index]) }
                done.leave()
            }
        }
        done.wait()
    }

    /// At most this many opened directories are kept for reuse (each holds a descriptor).
    static let directoriesHeldLimit = 64

    /// At most this many replaced files are held open at once (a larger pass releases them in batches), well
    /// below the unit's file-descriptor limit.
    static let replacedHeldLimit = 256
    /// Threads that close replaced files.
    static let releaseThreads = 8

    /// Removes a staged file that will not be committed.
    func discard(_ temporary: String) {
        if case .success(let (folder, name)) = parent(of: temporary, creating: false) { _ = folder.removeFile(name) }
    }

    /// Whether any directory's entries changed since the last ``syncDirectories()``.
    var hasChangedDirectories: Bool { !changed.isEmpty }

    /// Forgets the directories waiting for an fsync (a syncfs already made them durable).
    func forgetChangedDirectories() { changed.removeAll() }

    /// Removes the file at `relative` (never a directory, never through a link), then its parent directories up to,
    /// not including, `v1/` while they are empty (a directory holding anything else stays).
    func remove(_ relative: String) -> Removal {
        let folder: TrustedDirectory
        let name: String
        switch parent(of: relative, creating: false) {
        case .success(let found): (folder, name) = found
        case .failure(let failure):
            // A parent already gone means the file is; one that is a link is left alone and reported.
            return failure.missing ? .alreadyGone : .failed(failure)
        }
        if let failure = folder.removeFile(name) {
            return failure.code == .missing ? .alreadyGone : .failed(Failure(failure))
        }
        var directoryPath = Self.split(relative).folder
        changed.insert(directoryPath)
        while !directoryPath.isEmpty {
            let (above, last) = Self.split(directoryPath)
            guard case .success(let parentFolder) = directory(above, creating: false),
                parentFolder.removeEmptyDirectory(last)
            else { break }
            directories = directories.filter { $0.key != directoryPath && !$0.key.hasPrefix(directoryPath + "/") }
            lastFolder = nil
            changed.remove(directoryPath)
            changed.insert(above)
            directoryPath = above
        }
        return .removed
    }

    /// Fsyncs every directory whose entries changed, so renames and removals survive a power cut.
    func syncDirectories() {
        for relative in changed.sorted() {
            if case .success(let folder) = directory(relative, creating: false) { folder.sync() }
        }
        changed.removeAll()
    }

    /// `a/b/c.json` → (`a/b`, `c.json`); `c.json` → (``, `c.json`).
    static func split(_ relative: String) -> (folder: String, name: String) {
        guard let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", relative) }
        return (String(relative[..<slash]), String(relative[relative.index(after: slash)...]))
    }
}
