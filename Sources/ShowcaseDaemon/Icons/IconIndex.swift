import ShowcaseCore

/// Which file holds each icon already fetched: (source URL, size) → `icons/<digest>.<ext>`, kept in
/// `state.directory` (``IconIndexFile``) so a restart never fetches an icon again while its file exists.
///
/// A value with its own text form, one entry a line (`<size> <path> <source URL>`, sorted, so the same index always
/// gives the same bytes and an unchanged index is never rewritten). Lines that do not parse — a damaged or edited
/// file — are dropped, which costs at most a refetch, never a wrong icon: a path must be an icon name
/// (``IconName/isIconPath(_:)``), so nothing else in the tree can be named by it.
struct IconIndex: Hashable, Sendable {
    static let header = "# showcased icon index 1: <size> <path under v1/> <source URL>. Safe to delete."

    /// Path of each key's file, relative to `v1/`.
    private(set) var paths: [IconKey: String] = [:]

    init() {}

    /// The index in `text`; lines that do not parse are dropped.
    init(parsing text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, let size = Int(fields[0]), (1...4096).contains(size),
                IconName.isIconPath(String(fields[1])), !fields[2].isEmpty
            else { continue }
            paths[IconKey(source: String(fields[2]), size: size)] = String(fields[1])
        }
    }

    /// The text form: the header, then one sorted line per entry.
    func encoded() -> String {
        let lines = paths.sorted { $0.key < $1.key }.map { "\($0.key.size) \($0.value) \($0.key.source)" }
        return ([Self.header] + lines).joined(separator: "\n") + "\n"
    }

    /// Every file the index names.
    var files: Set<String> { Set(paths.values) }

    /// The path of `key`'s file, if it was fetched.
    subscript(key: IconKey) -> String? { paths[key] }

    /// Records that `key`'s icon is the file at `path`. A source URL with a space or line break (never an Apple URL:
    /// the roster's URL rules refuse them) is not recorded, so it cannot break the text form.
    mutating func record(_ key: IconKey, path: String) {
        guard IconName.isIconPath(path), !key.source.contains(where: { $0 == " " || $0.isNewline }) else { return }
        paths[key] = path
    }

    /// Forgets every entry whose file is one of `missing` (gone from the tree, or foreign there): they are fetched
    /// again.
    mutating func forget(paths missing: Set<String>) {
        guard !missing.isEmpty else { return }
        paths = paths.filter { !missing.contains($0.value) }
    }

    /// Keeps only the entries of `keys` (apps and sizes no longer exported are forgotten, so the index stays
    /// as large as the export).
    mutating func keep(only keys: Set<IconKey>) {
        paths = paths.filter { keys.contains($0.key) }
    }
}
