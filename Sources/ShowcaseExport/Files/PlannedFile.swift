import FoundationEssentials

/// One file an export wants on disk: a document or `index.json`, or its `.gz`.
struct PlannedFile {
    /// Relative to `v1/`.
    var path: String
    /// The document's bytes (for a `.gz`, the bytes it compresses).
    var source: Data
    /// The digest of ``source``, which is what ``ExportMemory`` remembers for the file (for a `.gz` too).
    var digest: ContentDigest
    /// True for the `.json.gz` beside a document.
    var isGzip: Bool
    /// A document's `revision` and `revisedAt`, remembered with it; nil for index.json and `.gz` files.
    var revision: Int?
    var revisedAt: Date?
    /// Set when writing it failed.
    var failed = false
    /// The zlib level of a `.gz`.
    var gzipLevel = Gzip.defaultLevel

    init(path: String, source: Data, digest: ContentDigest, isGzip: Bool, revision: Int? = nil, revisedAt: Date? = nil)
    {
        self.path = path
        self.source = source
        self.digest = digest
        self.isGzip = isGzip
        self.revision = revision
        self.revisedAt = revisedAt
    }

    /// Whether `existing` (nil: missing, or not a regular file) already holds this content. A `.gz` is compared
    /// by what it inflates to, so an unchanged document costs no compression.
    func matches(_ existing: Data?) -> Bool {
        guard let existing else { return false }
        guard isGzip else { return existing == source }
        return Gzip.decompress(existing, limit: source.count) == source
    }

    /// What ``ExportMemory`` keeps for this file once `identity` is known to hold its content.
    func remembered(as identity: FileIdentity) -> ExportMemory.File {
        ExportMemory.File(identity: identity, digest: digest, revision: revision, revisedAt: revisedAt)
    }

    /// The bytes to write; nil if compression failed.
    func bytes() -> Data? { isGzip ? Gzip.compress(source, level: gzipLevel) : source }
}
