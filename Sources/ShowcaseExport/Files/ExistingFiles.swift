import FoundationEssentials
import ShowcaseCore

/// What one pass knows about the files already under `v1/`: the remembered ones whose identity still holds
/// (``ExportMemory``), and the bytes of those it had to read — each read at most once per pass.
struct ExistingFiles {
    /// The tree, `<directory>/v1`.
    let root: String
    /// The previous passes' memory of the tree.
    private let memory: [String: ExportMemory.File]
    /// Each path looked up this pass: the remembered file when the one on disk is still it.
    private var checked: [String: ExportMemory.File?] = [:]
    /// Each path read this pass and still wanted (nil: nothing readable there).
    private var reads: [String: FileSystem.Read?] = [:]

    /// What the last pass rendered for each roster, by roster key (empty for another tree).
    let rendered: [String: ExportMemory.Rendered]
    /// The memory's clock: a file read is settled when its ctime lies far enough before this clock's `now`.
    private let clock: any ShowcaseClock

    /// How many files this pass read back to compare (tests check that remembered files are not read).
    private(set) var readCount = 0

    /// The files under `root`, with what earlier passes remembered of them.
    init(root: String, memory: ExportMemory) {
        self.root = root
        self.memory = memory.root == root ? memory.files : [:]
        self.rendered = memory.root == root ? memory.rendered : [:]
        checked.reserveCapacity(self.memory.count)
        clock = memory.clock
    }

    /// How many files earlier passes remembered.
    var rememberedCount: Int { memory.count }

    /// The remembered file at `relative`, when the file there still has the identity it had (one `lstat`).
    mutating func remembered(_ relative: String, files: FileSystem) -> ExportMemory.File? {
        if let known = checked[relative] { return known }
        let found = memory[relative].flatMap { file in
            files.identity(of: relative) == file.identity ? file : nil
        }
        checked[relative] = found
        return found
    }

    /// The remembered file at `relative` when it still has the identity it had, as ``remembered(_:files:)`` says but
    /// not kept for another look: for the files of a reused roster, each looked at once.
    func stillHolds(_ relative: String, files: FileSystem) -> ExportMemory.File? {
        guard let file = memory[relative], files.identity(of: relative) == file.identity else { return nil }
        return file
    }

    /// The file at `relative` as read this pass (read now if it was not yet, and kept for a later look); nil when it
    /// is missing, not a regular file, or larger than `limit`.
    mutating func read(_ relative: String, limit: Int, files: FileSystem) -> FileSystem.Read? {
        if let known = reads[relative] { return known }
        let read = load(relative, limit: limit, files: files)
        reads[relative] = read
        return read
    }

    /// The file at `relative` as ``read(_:limit:files:)`` gives it, for the last look this pass: its bytes are not
    /// kept, so a pass holds only the files its plan still needs, not every file it compared.
    mutating func take(_ relative: String, limit: Int, files: FileSystem) -> FileSystem.Read? {
        if let known = reads.removeValue(forKey: relative) { return known }
        return load(relative, limit: limit, files: files)
    }

    private mutating func load(_ relative: String, limit: Int, files: FileSystem) -> FileSystem.Read? {
        readCount += 1
        guard var read = files.read(relative, limit: limit) else { return nil }
        read.settled = read.identity.isSettled(now: clock.now)
        return read
    }
}
