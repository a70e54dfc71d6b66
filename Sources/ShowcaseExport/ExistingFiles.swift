import Foundation

/// What one pass knows about the files already under `v1/`: the remembered ones whose identity still holds
/// (``ExportMemory``), and the bytes of those it had to read — each read at most once per pass.
struct ExistingFiles {
    /// The tree, `<directory>/v1`.
    let root: String
    /// The previous passes' memory of the tree.
    private let memory: [String: ExportMemory.File]
    /// Each path looked up this pass: the remembered file when the one on disk is still it.
    private var checked: [String: ExportMemory.File?] = [:]
    /// Each path read this pass (nil: nothing readable there).
    private var reads: [String: Read?] = [:]

    /// A file's bytes as read this pass, with its identity just before the read.
    struct Read {
        var bytes: Data
        var identity: FileIdentity
        var settled: Bool
    }

    /// How many files this pass read back to compare (tests check that remembered files are not read).
    private(set) var readCount = 0

    /// The files under `root`, with what earlier passes remembered of them.
    init(root: String, memory: ExportMemory) {
        self.root = root
        self.memory = memory.root == root ? memory.files : [:]
    }

    /// The remembered file at `relative`, when the file there still has the identity it had (one `lstat`).
    mutating func remembered(_ relative: String, files: FileSystem) -> ExportMemory.File? {
        if let known = checked[relative] { return known }
        let found = memory[relative].flatMap { file in
            files.identity(of: root + "/" + relative) == file.identity ? file : nil
        }
        checked[relative] = found
        return found
    }

    /// The file at `relative` as read this pass (read now if it was not yet); nil when it is missing, not a regular
    /// file, or larger than `limit`.
    mutating func read(_ relative: String, limit: Int, files: FileSystem) -> Read? {
        if let known = reads[relative] { return known }
        let read = files.read(root + "/" + relative, limit: limit).map {
            Read(bytes: $0.bytes, identity: $0.identity, settled: $0.settled)
        }
        readCount += 1
        reads[relative] = read
        return read
    }
}
