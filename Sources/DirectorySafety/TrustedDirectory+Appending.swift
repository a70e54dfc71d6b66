import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

extension TrustedDirectory {
    /// Appends `bytes` to the regular file `name` (made with `mode`, less the umask, when missing) with one
    /// `write(2)` on an `O_APPEND` descriptor, so a reader, or a crash, sees either none of it or a prefix of it at
    /// the end of the file, never bytes in the middle. With `truncatingTo`, the file is first cut to that length
    /// (`ftruncate` on the same descriptor): how a log drops the partial last line a `kill -9` left before it
    /// appends after it.
    ///
    /// Opened `O_NOFOLLOW|O_NONBLOCK` and checked with `fstat` before a byte is written: a symlink, FIFO, device,
    /// directory, or a file with another name elsewhere (a hard link) is ``DirectoryError/Code/unexpected`` and
    /// left as it was.
    public func append(_ name: String, bytes: Data, truncatingTo length: Int? = nil, mode: mode_t = 0o644)
        -> DirectoryError?
    {
        let target = child(name)
        let fd = openat(descriptor, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard fd >= 0 else {
            let code = errno
            // A FIFO without a reader (ENXIO) or a link (ELOOP) is something planted: say what it is.
            if code == ELOOP || code == ENXIO || code == EISDIR, let entry = entry(name) {
                return DirectoryError(
                    .unexpected(entry.kind), path: target,
                    "\(target) is \(entry.kind.phrase) where showcased expects its own file; it is left alone")
            }
            return DirectoryError(.system(code), path: target, "cannot open \(target): \(Self.reason(code))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            return DirectoryError(.system(code), path: target, "cannot stat \(target): \(Self.reason(code))")
        }
        let found = Entry(info)
        guard found.kind == .regular, found.links == 1 else {
            let what = found.kind == .regular ? "a file with another name (a hard link)" : found.kind.phrase
            return DirectoryError(
                .unexpected(found.kind == .regular ? .other : found.kind), path: target,
                "\(target) is \(what) where showcased expects its own file; it is left alone")
        }
        if let length, length >= 0, length < info.st_size, ftruncate(fd, off_t(length)) != 0 {
            let code = errno
            return DirectoryError(.system(code), path: target, "cannot truncate \(target): \(Self.reason(code))")
        }
        let failure = bytes.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
            while true {
                let count = write(fd, base, buffer.count)
                if count < 0, errno == EINTR { continue }
                if count < 0 { return errno }
                // A short write (a full disk) leaves a partial line, which readers ignore and the next append cuts.
                return count == buffer.count ? 0 : ENOSPC
            }
        }
        guard failure == 0 else {
            return DirectoryError(.system(failure), path: target, "cannot append to \(target): \(Self.reason(failure))")
        }
        guard fsync(fd) == 0 else {
            let code = errno
            return DirectoryError(.system(code), path: target, "cannot flush \(target): \(Self.reason(code))")
        }
        return nil
    }

    /// Replaces the file `name` with `bytes` atomically: a temporary file created exclusively beside it, flushed,
    /// renamed over `name` (which is replaced as a name, never followed or written through), then this directory
    /// flushed. A crash at any point leaves either the old file or the new one.
    public func replace(_ name: String, bytes: Data, mode: mode_t = 0o644) -> DirectoryError? {
        let temporary = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        if let failure = create(temporary, bytes: bytes, mode: mode, applyingUmask: true) { return failure }
        if let failure = syncFile(temporary) ?? rename(temporary, to: name) {
            _ = removeFile(temporary)
            return failure
        }
        sync()
        return nil
    }
}
