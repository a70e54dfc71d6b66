import Foundation

/// One file an export wants on disk: a document or `index.json`, or its `.gz`.
struct PlannedFile {
    /// Relative to `v1/`.
    var path: String
    /// The document's bytes (for a `.gz`, the bytes it compresses).
    var source: Data
    /// True for the `.json.gz` beside a document.
    var isGzip: Bool
    /// Set when writing it failed.
    var failed = false

    init(path: String, source: Data, isGzip: Bool) {
        self.path = path
        self.source = source
        self.isGzip = isGzip
    }

    /// Whether `existing` (nil: missing, or not a regular file) already holds this content. A `.gz` is compared
    /// by what it inflates to, so an unchanged document costs no compression.
    func matches(_ existing: Data?) -> Bool {
        guard let existing else { return false }
        guard isGzip else { return existing == source }
        return Gzip.decompress(existing, limit: source.count) == source
    }

    /// The bytes to write; nil if compression failed.
    func bytes() -> Data? { isGzip ? Gzip.compress(source) : source }
}
