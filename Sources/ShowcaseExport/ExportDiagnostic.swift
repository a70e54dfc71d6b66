import ShowcaseCore

/// A roster `index.json` reports as not current, with or without a document: the monitoring view of the export.
public struct ExportDiagnostic: Sendable, Hashable {
    /// The host app's bundle id.
    public var host: String
    /// The storefront.
    public var storefront: Storefront
    /// The roster's language, nil when fetched without one.
    public var language: String?
    /// The roster's state (`failed` for a diagnostic, `unavailable` when transport failed with nothing cached).
    public var state: ServedState
    /// What went wrong, as a sentence.
    public var error: String

    /// A roster's diagnostic line.
    public init(host: String, storefront: Storefront, language: String?, state: ServedState, error: String) {
        self.host = host
        self.storefront = storefront
        self.language = language
        self.state = state
        self.error = error
    }

    var json: JSONText {
        .object([
            ("host", .string(host)), ("storefront", .string(storefront.code)),
            ("language", language.map { .string($0) } ?? .null), ("state", .string(state.rawValue)),
            ("error", .string(error)),
        ])
    }
}
