/// The words showcased writes itself, in a document's language (SPEC §19): the built-in table, then the overlay's
/// `labels` over it. A language is a BCP 47 tag (`fr-CA`, `pt-BR`, `zh-Hant`, `_` read as `-`, any case); lookup
/// tries the overlay's labels and then the table for each tag of ``lookupChain(for:)``, then English.
public struct Labels: Sendable, Hashable {
    /// The overlay's `labels`: normalized BCP 47 tag (``Tagline/normalize(_:)``) → key → text.
    public var overrides: [String: [LabelKey: String]]

    /// Labels with the overlay's `labels` (empty: the built-in table alone); tags are normalized here.
    public init(overrides: [String: [LabelKey: String]] = [:]) {
        var normalized: [String: [LabelKey: String]] = [:]
        for (tag, labels) in overrides {
            normalized[Tagline.normalize(tag), default: [:]].merge(labels) { _, new in new }
        }
        self.overrides = normalized
    }

    /// The built-in table alone.
    public static let builtIn = Labels()

    /// `key`'s text for `language`, with each `{name}` replaced by `values[name]` in one pass (a value is never
    /// read for placeholders again; see ``LabelText/filled(_:_:)``).
    public func text(_ key: LabelKey, language: String, _ values: [String: String] = [:]) -> String {
        LabelText.filled(template(key, language: language), values)
    }

    /// `key`'s text for `language` with its placeholders unfilled: an override, else the table, else English.
    public func template(_ key: LabelKey, language: String) -> String {
        for tag in Self.lookupChain(for: language) {
            if let found = overrides[tag]?[key] ?? LabelTable.text(key, tag) { return found }
        }
        return key.english
    }

    /// Every label for `language`, by key: what the export hands the widget with a document.
    public func all(language: String) -> [LabelKey: String] {
        var labels: [LabelKey: String] = [:]
        for key in LabelKey.allCases { labels[key] = template(key, language: language) }
        return labels
    }

    /// The normalized tags tried for `language`, most specific first: ``Tagline/lookupChain(for:)`` of the tag
    /// with its likely script and current language code — `zh-TW`, `zh-HK` and `zh-MO` read as `zh-Hant-…`, any
    /// other `zh` as `zh-Hans`; `nb` and `nn` as `no`, `iw` as `he`, `in` as `id` — then of the tag as written.
    public static func lookupChain(for language: String) -> [String] {
        var subtags = Tagline.normalize(language).split(separator: "-").map(String.init)
        guard let primary = subtags.first else { return [] }
        let written = Tagline.lookupChain(for: subtags.joined(separator: "-"))
        subtags[0] = aliases[primary] ?? primary
        if subtags[0] == "zh", subtags.count < 2 || subtags[1].count != 4 {
            let traditional = subtags.count > 1 && ["tw", "hk", "mo"].contains(subtags[1])
            subtags.insert(traditional ? "hant" : "hans", at: 1)
        }
        var chain = Tagline.lookupChain(for: subtags.joined(separator: "-"))
        for tag in written where !chain.contains(tag) { chain.append(tag) }
        return chain
    }

    /// Language codes read as another: Norwegian Bokmål and Nynorsk share the table's `no`; the withdrawn ISO 639
    /// codes of Hebrew and Indonesian still sent by old Java and Android systems.
    private static let aliases = ["nb": "no", "nn": "no", "iw": "he", "in": "id"]

    /// Whether `language` is written right to left (ar, he, fa, ur): documents in it carry `dir="rtl"`.
    public static func isRightToLeft(_ language: String) -> Bool {
        let primary = Tagline.normalize(language).split(separator: "-").first.map(String.init) ?? ""
        return ["ar", "he", "iw", "fa", "ur"].contains(primary)
    }

    /// `rtl` for a language written right to left, else `ltr`: the value of a document's `dir`.
    public static func direction(_ language: String) -> String { isRightToLeft(language) ? "rtl" : "ltr" }
}
