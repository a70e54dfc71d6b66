import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Reads a file the daemon did not write itself (configuration, overlays) or must not trust (cache files):
/// only a regular file, never a hang, never more than a bound.
///
/// `open(2)` on a FIFO blocks until a writer appears, and reading a character device can stream forever, so
/// `Data(contentsOf:)` or `FileHandle` on such a path stops whoever asked — a reload, `check-config`, or the
/// daemon's startup — for good. The file is opened with `O_NONBLOCK` (which makes opening a FIFO return at
/// once), checked with `fstat` on the descriptor that is then read (no window between a check and the open),
/// and refused unless it is a regular file.
public enum RegularFile {
    /// The bytes of the regular file at `path`, at most `limit` of them.
    ///
    /// - Throws: ``RegularFileError`` naming the path: missing, not readable, not a regular file (a FIFO,
    ///   device, socket or directory), larger than `limit`, or a read that failed.
    public static func read(path: String, limit: Int) throws(RegularFileError) -> Data {
        let fd = try openRegular(path: path)
        defer { close(fd) }
        var status = stat()
        let size = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
        guard size <= limit else { throw RegularFileError(path: path, reason: .tooLarge(limit: limit)) }
        return try readAll(fd, path: path, limit: limit, expected: size)
    }

    /// The first at most `count` bytes of the regular file at `path` (a header line, without the rest).
    ///
    /// - Throws: ``RegularFileError`` as ``read(path:limit:)`` does, except that a longer file is not an error.
    public static func prefix(path: String, count: Int) throws(RegularFileError) -> Data {
        let fd = try openRegular(path: path)
        defer { close(fd) }
        var data = Data(count: max(count, 0))
        var filled = 0
        while filled < data.count {
            let got = data.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw RegularFileError(path: path, reason: .readFailed(errno: errno)) }
            if got == 0 { break }
            filled += got
        }
        data.count = filled
        return data
    }

    /// Opens `path` read-only without blocking and returns the descriptor only when it is a regular file.
    private static func openRegular(path: String) throws(RegularFileError) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            throw RegularFileError(
                path: path, reason: code == ENOENT || code == ENOTDIR ? .missing : .openFailed(errno: code))
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw RegularFileError(path: path, reason: .openFailed(errno: code))
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(fd)
            throw RegularFileError(path: path, reason: .notRegular(kind: kindName(type)))
        }
        return fd
    }

    private static func readAll(_ fd: Int32, path: String, limit: Int, expected: Int) throws(RegularFileError) -> Data {
        var data = Data()
        data.reserveCapacity(min(max(expected, 0), limit) + 1)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw RegularFileError(path: path, reason: .readFailed(errno: errno)) }
            if got == 0 { return data }
            guard data.count <= limit - got else { throw RegularFileError(path: path, reason: .tooLarge(limit: limit)) }
            data.append(contentsOf: chunk[0..<got])
        }
    }

    private static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
