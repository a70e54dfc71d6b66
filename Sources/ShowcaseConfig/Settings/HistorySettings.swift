/// The `history:` section: how much of each roster's change history (SPEC §15) is kept.
public struct HistorySettings: Sendable, Equatable {
    /// `history.keep` — integer 1...10000, default 100: change entries kept per (host, storefront, language); the
    /// oldest are dropped first.
    public var keep: Int

    /// The accepted range of `history.keep`.
    public static let keepRange = 1...10_000

    /// A history section keeping `keep` entries per roster (default 100).
    public init(keep: Int = 100) {
        self.keep = keep
    }

    static let keys = ["keep"]

    init(reading node: YAMLNode, diagnostics: inout ConfigDiagnostics) {
        self.init()
        guard let fields = diagnostics.fields(of: node, in: "history", known: Self.keys) else { return }
        if let value = fields["keep"] {
            if let text = value.scalar, !value.isNull, let keep = Int(text), Self.keepRange.contains(keep) {
                self.keep = keep
            } else {
                diagnostics.report(
                    .invalidValue, at: value,
                    "'history.keep' must be a whole number from 1 to 10000, found \(value.kindDescription)")
            }
        }
    }
}
