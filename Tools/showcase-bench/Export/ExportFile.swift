/// One export document as the bench saw it: when it was last written and what it holds. Two snapshots of the
/// same path tell a rewrite (mtime or bytes moved) from a document the writer left alone.
struct ExportFile: Equatable {
    /// `st_mtim` in nanoseconds since the epoch.
    var modifiedNanoseconds: Int64
    var bytes: [UInt8]
}
