/// Something the export could not do, as a value: the writer never throws or traps, so a full disk or a
/// permission problem is logged and reported in Status while the daemon keeps serving.
///
/// Compared by ``code`` and ``path``; ``message`` is the sentence an operator reads.
public struct ExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Code: String, Sendable, Hashable {
        /// `export.directory` (or its `v1/`) cannot be created or is not a directory: nothing was written.
        case directoryUnusable
        /// A document could not be written (full disk, permissions); the previous file, if any, is intact.
        case writeFailed
        /// A document no longer wanted could not be removed; it stays listed in the manifest for the next run.
        case removeFailed
        /// A file showcased did not write sits where a document belongs; it is left alone and not overwritten.
        case foreignFile
        /// Something showcased never makes sits where its own file or directory belongs inside the tree (a symbolic
        /// link, a FIFO, a device, a hard link at a temporary name, a directory where a document belongs): it is
        /// left alone, never followed, written through or waited on.
        case unexpectedEntry
        /// A host, storefront or language would not make a safe file name, or two rosters claim one document.
        case invalidDocument
    }

    /// What kind of failure it is.
    public var code: Code
    /// The file or directory concerned.
    public var path: String
    /// What happened and what to do, as one sentence.
    public var message: String

    /// An error about `path`.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The sentence an operator reads.
    public var description: String { message }

    /// Errors are equal when they are the same failure of the same file, whatever the wording.
    public static func == (lhs: ExportError, rhs: ExportError) -> Bool { lhs.code == rhs.code && lhs.path == rhs.path }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(path)
    }
}
