import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// What kind of thing a directory entry is, as `lstat` tells (a link is itself, never what it points to).
public enum EntryKind: Sendable, Equatable {
    case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other

    /// The kind in a `stat` mode.
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }

    /// "a symbolic link", "a FIFO", … for messages.
    public var phrase: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "an unknown kind of file"
        }
    }
}

/// One directory entry as `fstatat(AT_SYMLINK_NOFOLLOW)` or `fstat` saw it.
public struct Entry: Sendable {
    /// What it is.
    public var kind: EntryKind
    /// The full `stat`, for identities (inode, size, times).
    public var info: stat
    /// How many names the file has: above one, a hard link shares it with a name elsewhere.
    public var links: UInt64 { UInt64(info.st_nlink) }
    /// Its owner.
    public var owner: uid_t { info.st_uid }

    /// The entry `info` describes.
    public init(_ info: stat) {
        self.info = info
        kind = EntryKind(mode: info.st_mode)
    }

    /// Whether it is a regular file of this process's user with no other name: one this process may treat as a
    /// leftover of its own (a temporary file a crash left behind).
    public var isOwnSingleFile: Bool { kind == .regular && links == 1 && owner == geteuid() }
}

/// A regular file's bytes, with its entry as `fstat` saw it just before the read.
public struct FileContents: Sendable {
    /// The content.
    public var bytes: Data
    /// The file, as it was when opened.
    public var entry: Entry
}
