@preconcurrency import Glibc

/// Reads the export tree's documents (`HOST/STOREFRONT/PLATFORM.json` under `v1/`; `index.json` and the `.gz`
/// copies are not documents of a roster) with their mtimes, for ``ExportComparison``.
enum ExportTree {
    /// Every document under `directory/v1` (and each file beside one ending in one of `rendered`, like `.html`),
    /// keyed by its path relative to `v1`.
    static func snapshot(directory: String, rendered: [String] = []) -> [String: ExportFile] {
        var files: [String: ExportFile] = [:]
        for path in documentPaths(directory: directory, rendered: rendered) {
            if let file = read(directory + "/v1/" + path) { files[path] = file }
        }
        return files
    }

    /// The relative paths of the documents now in the tree.
    static func documentPaths(directory: String, rendered: [String] = []) -> [String] {
        var paths: [String] = []
        walk(directory + "/v1") { child, name, parent in
            if name.hasSuffix(".json"), child != "index.json" {
                paths.append(child)
            } else if !parent.isEmpty, rendered.contains(where: { name.hasSuffix($0) }) {
                paths.append(child)
            }
        }
        return paths
    }

    /// Calls `visit` with every file under `root` (names starting with a dot skipped): its path relative to `root`,
    /// its name and its folder's relative path (empty at the top).
    static func walk(_ root: String, _ visit: (_ path: String, _ name: String, _ parent: String) -> Void) {
        var pending = [""]
        while let relative = pending.popLast() {
            guard let handle = opendir(relative.isEmpty ? root : root + "/" + relative) else { continue }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." || name.hasPrefix(".") { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                if entry.pointee.d_type == UInt8(DT_DIR) {
                    pending.append(child)
                } else {
                    visit(child, name, relative)
                }
            }
        }
    }

    /// The mtime of `path` in nanoseconds, or nil when it cannot be read.
    static func modified(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
    }

    /// One file's mtime and bytes, or nil when it cannot be read (gone between the listing and the read).
    static func read(_ path: String) -> ExportFile? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // fstat on the open file: the mtime belongs to the bytes read, even if a rename replaces the path meanwhile.
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        let modified = Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
        return ExportFile(modifiedNanoseconds: modified, bytes: bytes)
    }
}
