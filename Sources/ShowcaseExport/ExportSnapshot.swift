import FoundationEssentials

/// The one look at `v1/` an export pass reconciles its plan against: the manifest as the pass found it (read once,
/// or trusted from ``ExportMemory`` while its identity holds), and each file's identity and bytes, looked at or read
/// at most once (``ExistingFiles``).
struct ExportSnapshot {
    /// The tree, opened once for the pass; the apply phase performs through it.
    let files: FileSystem
    /// What the pass knows of the files there.
    var existing: ExistingFiles
    /// The files the manifest listed when the pass began: only those are ever replaced or removed.
    let previous: ExportManifest
    /// Whether that manifest is the one the last pass left (its identity held), so it lists every file that pass
    /// remembers.
    let manifestTrusted: Bool
    /// The manifest as read, for the next pass to trust while its identity holds; nil when it had not settled.
    let manifest: (identity: FileIdentity, listed: ExportManifest)?
}
