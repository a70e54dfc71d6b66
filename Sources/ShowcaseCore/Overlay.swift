// STUB (interface contract): the core issue owns this type and its read-time application.

/// The operator's curation of a roster, applied at read time: never an allowlist.
public struct Overlay: Sendable, Equatable {
    /// App ids pinned first, in this order. Ids not in the roster, and repeats, are ignored.
    public var order: [Int]
    /// App ids never shown.
    public var excluded: Set<Int>
    /// Taglines by app id: the lookup API has no subtitle field, so this is their only source.
    public var taglines: [Int: Tagline]

    public init(order: [Int] = [], excluded: Set<Int> = [], taglines: [Int: Tagline] = [:]) {
        self.order = order
        self.excluded = excluded
        self.taglines = taglines
    }

    /// The empty overlay: roster order, nothing hidden, no taglines.
    public static let empty = Overlay()
}

/// One app's tagline: a single string for every locale, or per-locale strings with an optional default.
public enum Tagline: Sendable, Equatable {
    case plain(String)
    case localized(default: String?, byLocale: [String: String])
}
