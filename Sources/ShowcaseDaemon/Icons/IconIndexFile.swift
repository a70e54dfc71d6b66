import DirectorySafety
import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `icons.index` in `state.directory`: ``IconIndex`` read at start and rewritten atomically (an exclusive
/// temporary file, flushed, renamed over the old one) when it changes. Failures are sentences for the log: without
/// the index icons are fetched again after a restart, nothing worse.
struct IconIndexFile: Sendable {
    static let fileName = "icons.index"
    /// Far above any real index (a line is ~200 bytes; 200 apps × 8 sizes × 10 hosts is 3 MB).
    static let readLimit = 16 << 20

    /// `state.directory`.
    var directory: String

    /// The index on disk; empty when there is none or it cannot be read (with the reason, except for a missing
    /// file or directory, which is how every daemon starts).
    func load() -> (index: IconIndex, problem: String?) {
        let folder: TrustedDirectory
        do {
            folder = try TrustedDirectory.open(directory)
        } catch {
            return (IconIndex(), error.code == .missing || error.code == .system(ENOENT) ? nil : error.message)
        }
        switch folder.read(Self.fileName, limit: Self.readLimit) {
        case .success(let contents): return (IconIndex(parsing: String(decoding: contents.bytes, as: UTF8.self)), nil)
        case .failure(let error): return (IconIndex(), error.code == .missing ? nil : error.message)
        }
    }

    /// Writes `index` atomically, making `state.directory` (0755 less the umask) when missing; the reason on failure.
    func save(_ index: IconIndex) -> String? {
        do {
            let folder = try TrustedDirectory.open(directory, creating: 0o755, applyingUmask: true)
            let temporary = ".\(Self.fileName).\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
            if let error = folder.create(temporary, bytes: Data(index.encoded().utf8), applyingUmask: true) {
                return error.message
            }
            if let error = folder.syncFile(temporary) ?? folder.rename(temporary, to: Self.fileName) {
                _ = folder.removeFile(temporary)
                return error.message
            }
            _ = folder.sync()
            return nil
        } catch {
            return error.message
        }
    }
}
