import FoundationEssentials

/// `v1/index.json`: every document with its state, revision and fetch time, and every roster in a diagnostic with
/// its error — the volatile part the documents leave out, so a page or a sync job can tell current from kept.
///
/// ```json
/// {"schema": 1,
///  "documents": [{"path", "host", "storefront", "platform", "language", "state", "revision", "fetchedAt",
///                 "error"?}, …],
///  "diagnostics": [{"host", "storefront", "language", "state", "error"}, …]}
/// ```
///
/// Both lists are sorted (documents by path; diagnostics by host, storefront, language), and nothing in it is
/// the time it was written, so an export that changes nothing leaves `index.json` alone too.
public struct ExportIndex: Sendable, Hashable {
    /// Every document in the tree.
    public var documents: [ExportIndexEntry]
    /// Every roster that is not current because of an error.
    public var diagnostics: [ExportDiagnostic]

    /// An index of these documents and diagnostics (in any order: they are sorted when encoded).
    public init(documents: [ExportIndexEntry], diagnostics: [ExportDiagnostic] = []) {
        self.documents = documents
        self.diagnostics = diagnostics
    }

    /// The index's bytes.
    public func encoded() -> Data {
        let documents = documents.sorted { $0.path < $1.path }
        let diagnostics = diagnostics.sorted {
            ($0.host, $0.storefront.code, $0.language ?? "") < ($1.host, $1.storefront.code, $1.language ?? "")
        }
        return JSONText.object([
            ("schema", .int(ExportDocument.schema)), ("documents", .array(documents.map(\.json))),
            ("diagnostics", .array(diagnostics.map(\.json))),
        ]).rendered()
    }
}
