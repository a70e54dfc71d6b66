import FoundationEssentials

/// The document already at a path, as far as revising it needs: its `revision` and `revisedAt`, and its bytes —
/// read from the file, or only their digest when ``ExportMemory`` vouches for the file.
struct PreviousDocument {
    var revision: Int
    var revisedAt: Date
    /// The bytes read from the file, when they were read.
    var bytes: Data?
    /// The digest of its bytes.
    var digest: ContentDigest?

    /// The document in `bytes`; nil when they are not a document the writer rendered.
    init?(bytes: Data) {
        guard let (revision, revisedAt) = ExportDocument.revision(in: bytes) else { return nil }
        self.revision = revision
        self.revisedAt = revisedAt
        self.bytes = bytes
    }

    /// The document a remembered file holds; nil when it is not a document.
    init?(remembered file: ExportMemory.File) {
        guard let revision = file.revision, let revisedAt = file.revisedAt else { return nil }
        self.revision = revision
        self.revisedAt = revisedAt
        self.digest = file.digest
    }

    /// Whether `data` (whose digest is `digest`) is this document byte for byte.
    func holds(_ data: Data, digest: ContentDigest) -> Bool {
        if let bytes { return bytes == data }
        return self.digest == digest
    }
}
