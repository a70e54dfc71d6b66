/// The words showcased writes itself, in a document's language (SPEC §19): the built-in table, then the overlay's
/// `labels` over it. A language is a BCP 47 tag (`fr-CA`, `pt-BR`, `zh-Hant`); lookup tries the tag, then its
/// language and script, then its language, then English.
public struct Labels: Sendable, Equatable {
    /// The overlay's `labels`: normalized BCP 47 tag → key → text.
    public var overrides: [String: [LabelKey: String]]

    /// Labels with the overlay's `labels` (empty: the built-in table alone).
    public init(overrides: [String: [LabelKey: String]] = [:]) {
        self.overrides = overrides
    }

    /// The built-in table alone.
    public static let builtIn = Labels()

    /// `key`'s text for `language`, with each `{name}` replaced by `values[name]`.
    public func text(_ key: LabelKey, language: String, _ values: [String: String] = [:]) -> String {
        var text = key.english
        for tag in Self.fallbacks(of: language) {
            if let found = overrides[tag]?[key] ?? LabelTable.text(key, tag) {
                text = found
                break
            }
        }
        for (name, value) in values { text.replace("{" + name + "}", with: value) }
        return text
    }

    /// The tags to try for `language`, most specific first.
    static func fallbacks(of language: String) -> [String] {
        let parts = language.replacing("_", with: "-").split(separator: "-").map(String.init)
        guard let first = parts.first?.lowercased() else { return [] }
        var tags: [String] = []
        for count in stride(from: parts.count, to: 0, by: -1) {
            tags.append(([first] + parts.dropFirst().prefix(count - 1)).joined(separator: "-"))
        }
        return tags
    }

    /// Whether `language` is written right to left (ar, he, fa, ur): documents in it carry `dir="rtl"`.
    public static func isRightToLeft(_ language: String) -> Bool {
        let primary = language.replacing("_", with: "-").split(separator: "-").first?.lowercased()
        return ["ar", "he", "fa", "ur"].contains(primary ?? "")
    }
}

/// The built-in translations of every ``LabelKey`` (SPEC §19's languages); English is ``LabelKey/english``.
enum LabelTable {
    /// The text of `key` in `tag`, nil when the table has none.
    static func text(_ key: LabelKey, _ tag: String) -> String? { table[tag]?[key] }

    /// tag → key → text. Filled per language; a missing key falls back to English.
    static let table: [String: [LabelKey: String]] = [:]
}
