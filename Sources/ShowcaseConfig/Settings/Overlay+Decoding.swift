import ShowcaseCore

/// Reading an overlay (a file operators edit by hand, or the inline `overlay:` mapping).
///
/// Keys, all optional (an empty file is the empty overlay):
/// - `order` — list of app ids, default `[]`: pinned first, in this order. Not an allowlist.
/// - `excluded` — list of app ids, default `[]`: never shown.
/// - `taglines` — mapping from app id to a string (every locale) or to a mapping of locale tags
///   (`de`, `pt-BR`) with an optional `default`, default `{}`. The lookup API has no subtitle field,
///   so this is the only source of taglines.
/// - `product_pages` — mapping from app id to a Custom Product Page's UUID (8-4-4-4-12 hexadecimal digits, as App
///   Store Connect shows it; every surface), or to a mapping with an optional `default` UUID and a UUID per surface
///   (`varlink`, `json`, `html`, `email`, `feed`, `site`), default `{}`: `ppid=<uuid>` on that app's store URL
///   (SPEC §19). A host overlay's entry for an app replaces the global overlay's whole entry.
/// - `labels` — mapping from a BCP 47 tag (`fr`, `pt-BR`, `zh-Hant`; `_` for `-` and any case accepted, as for
///   taglines) to a mapping of ``LabelKey`` names (`more_from`, `feed_title`, …) to text, default `{}`: the words
///   showcased writes itself in that language, over the built-in table (SPEC §19). A text is at most
///   ``maximumLabelCharacters`` characters, with no control characters, and names only its key's placeholders
///   (`{developer}` in `more_from`). A host overlay's text for a key in a language replaces the global one's.
extension Overlay {
    static let keys = ["order", "excluded", "taglines", "product_pages", "labels"]
    /// The most characters one label's text may have: a heading or a line, never a paragraph.
    static let maximumLabelCharacters = 200

    init(reading node: YAMLNode, diagnostics: inout ConfigDiagnostics) {
        self.init()
        guard let fields = diagnostics.fields(of: node, in: nil, known: Self.keys) else { return }
        var pinnedAt: [Int: YAMLNode] = [:]
        if let value = fields["order"], let items = diagnostics.sequence(value, "order", expected: "a list of app ids")
        {
            for item in items {
                guard let id = diagnostics.appID(item, "order") else { continue }
                if let first = pinnedAt[id] {
                    diagnostics.report(
                        .duplicate, at: item,
                        "app id \(id) is already pinned at line \(first.location.line); list it once in 'order'")
                    continue
                }
                pinnedAt[id] = item
                order.append(id)
            }
        }
        if let value = fields["excluded"],
            let items = diagnostics.sequence(value, "excluded", expected: "a list of app ids")
        {
            for item in items {
                guard let id = diagnostics.appID(item, "excluded") else { continue }
                if pinnedAt[id] != nil {
                    diagnostics.report(
                        .invalidValue, at: item,
                        "app id \(id) is both pinned in 'order' and 'excluded'; remove it from one of them")
                } else if !excluded.insert(id).inserted {
                    diagnostics.report(.duplicate, at: item, "app id \(id) is listed twice in 'excluded'")
                }
            }
        }
        if let value = fields["taglines"] {
            guard case .mapping(let pairs) = value.content else {
                diagnostics.report(
                    .typeMismatch, at: value,
                    "expected a mapping from app id to tagline for 'taglines', found \(value.kindDescription)")
                return
            }
            for (key, entry) in pairs {
                guard let id = diagnostics.appID(key, "taglines") else { continue }
                guard taglines[id] == nil else {
                    diagnostics.report(.duplicate, at: key, "app id \(id) has two entries in 'taglines'; keep one")
                    continue
                }
                if let tagline = Self.tagline(entry, id: id, diagnostics: &diagnostics) {
                    taglines[id] = tagline
                }
            }
        }
        if let value = fields["product_pages"] {
            guard case .mapping(let pairs) = value.content else {
                diagnostics.report(
                    .typeMismatch, at: value,
                    "expected a mapping from app id to a product page UUID for 'product_pages', found "
                        + value.kindDescription)
                return
            }
            for (key, entry) in pairs {
                guard let id = diagnostics.appID(key, "product_pages") else { continue }
                guard productPages[id] == nil else {
                    diagnostics.report(
                        .duplicate, at: key, "app id \(id) has two entries in 'product_pages'; keep one")
                    continue
                }
                if let page = Self.productPage(entry, id: id, diagnostics: &diagnostics) { productPages[id] = page }
            }
        }
        if let value = fields["labels"] { labels = Self.labels(value, diagnostics: &diagnostics) }
    }

    /// The overlay's `labels` at `node`: `{<tag>: {<key>: text}}`.
    private static func labels(_ node: YAMLNode, diagnostics: inout ConfigDiagnostics) -> Labels {
        guard case .mapping(let pairs) = node.content else {
            diagnostics.report(
                .typeMismatch, at: node,
                "expected a mapping from a language tag to labels for 'labels', like {fr: {more_from: "
                    + "\"Aussi de {developer}\"}}, found \(node.kindDescription)")
            return .builtIn
        }
        var overrides: [String: [LabelKey: String]] = [:]
        var seen: [String: String] = [:]
        for (key, entry) in pairs {
            guard let tag = key.scalar, !key.isNull, isLocaleTag(tag) else {
                diagnostics.report(
                    .invalidValue, at: key,
                    "expected a language tag like fr or pt-BR in 'labels', found "
                        + (key.scalar.map { "'\($0)'" } ?? key.kindDescription))
                continue
            }
            if let earlier = seen.updateValue(tag, forKey: Tagline.normalize(tag)) {
                let same = earlier == tag ? "two '\(tag)' entries" : "'\(earlier)' and '\(tag)', the same language"
                diagnostics.report(.duplicate, at: key, "'labels' has \(same); keep one")
                continue
            }
            let path = "labels.\(tag)"
            guard let fields = diagnostics.fields(of: entry, in: path, known: LabelKey.allCases.map(\.rawValue))
            else { continue }
            var texts: [LabelKey: String] = [:]
            for (name, field) in fields.values {
                guard let label = LabelKey(rawValue: name) else { continue }
                if let text = labelText(field.value, key: label, path: "\(path).\(name)", diagnostics: &diagnostics) {
                    texts[label] = text
                }
            }
            overrides[tag] = texts
        }
        return Labels(overrides: overrides)
    }

    /// One label's text at `node`, checked: a string, bounded, without control characters, naming only `key`'s
    /// placeholders.
    private static func labelText(
        _ node: YAMLNode, key: LabelKey, path: String, diagnostics: inout ConfigDiagnostics
    ) -> String? {
        guard let text = node.scalar, !node.isNull, !text.trimmingWhitespace().isEmpty else {
            diagnostics.report(.typeMismatch, at: node, "expected the text of '\(path)', found \(node.kindDescription)")
            return nil
        }
        guard text.count <= maximumLabelCharacters else {
            diagnostics.report(
                .limitExceeded, at: node,
                "'\(path)' has \(text.count) characters; a label has at most \(maximumLabelCharacters)")
            return nil
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            diagnostics.report(
                .invalidValue, at: node, "'\(path)' contains a control character (a line break or tab); write one line")
            return nil
        }
        let allowed = key.placeholders
        let unknown = LabelText.placeholders(in: text).filter { !allowed.contains($0) }
        if let first = unknown.first {
            let known =
                allowed.isEmpty
                ? "it takes none" : "it can use " + allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")
            var message = "'\(path)' names an unknown placeholder {\(first)}; \(known)"
            if let guess = ConfigDiagnostics.closest(to: first, among: allowed.sorted()) {
                message = "'\(path)' names an unknown placeholder {\(first)}; did you mean {\(guess)}?"
            }
            diagnostics.report(.invalidValue, at: node, message)
            return nil
        }
        return text
    }

    /// The product page of app `id` at `node`: a UUID for every surface, or `{default: UUID, <surface>: UUID}`.
    private static func productPage(_ node: YAMLNode, id: Int, diagnostics: inout ConfigDiagnostics) -> ProductPage? {
        if case .mapping = node.content {
            let path = "product_pages.\(id)"
            guard let fields = diagnostics.fields(of: node, in: path, known: ["default"] + AttributionSurface.names)
            else { return nil }
            var page = ProductPage()
            if let value = fields["default"] { page.everySurface = uuid(value, "\(path).default", &diagnostics) }
            for surface in AttributionSurface.allCases {
                guard let value = fields[surface.rawValue] else { continue }
                page.bySurface[surface] = uuid(value, "\(path).\(surface.rawValue)", &diagnostics)
            }
            return page
        }
        return uuid(node, "product_pages.\(id)", &diagnostics).map { ProductPage(everySurface: $0) }
    }

    /// The UUID at `node` (the key `key`), lowercased; reported when it is not one.
    private static func uuid(_ node: YAMLNode, _ key: String, _ diagnostics: inout ConfigDiagnostics) -> String? {
        if let text = node.scalar, !node.isNull, ProductPage.isUUID(text) { return text.lowercased() }
        diagnostics.report(
            .invalidValue, at: node,
            "expected a Custom Product Page id, a UUID like 45812c9b-c296-43d3-b6a0-7a6b2f5d9e1c (as App Store "
                + "Connect shows it), for '\(key)', found \(node.scalar.map { "'\($0)'" } ?? node.kindDescription)")
        return nil
    }

    private static func tagline(_ node: YAMLNode, id: Int, diagnostics: inout ConfigDiagnostics) -> Tagline? {
        switch node.content {
        case .scalar(let text, _) where !node.isNull && !text.isEmpty:
            return .plain(text)
        case .mapping(let pairs) where !pairs.isEmpty:
            var fallback: String?
            var byLocale: [String: String] = [:]
            var seen: [String: String] = [:]
            for (key, value) in pairs {
                guard let locale = key.scalar, locale == "default" || isLocaleTag(locale) else {
                    diagnostics.report(
                        .invalidValue, at: key,
                        "expected a locale tag like de or pt-BR (or 'default') in the tagline of \(id), "
                            + "found \(key.kindDescription)")
                    continue
                }
                guard let text = value.scalar, !value.isNull, !text.isEmpty else {
                    diagnostics.report(
                        .typeMismatch, at: value,
                        "expected tagline text for '\(locale)' of app \(id), found \(value.kindDescription)")
                    continue
                }
                if locale == "default" {
                    if fallback != nil {
                        diagnostics.report(.duplicate, at: key, "the tagline of \(id) has two 'default' entries")
                    }
                    fallback = text
                } else if let earlier = seen.updateValue(locale, forKey: Tagline.normalize(locale)) {
                    let same =
                        earlier == locale
                        ? "two '\(locale)' entries" : "'\(earlier)' and '\(locale)', the same locale"
                    diagnostics.report(.duplicate, at: key, "the tagline of \(id) has \(same); keep one")
                } else {
                    byLocale[locale] = text
                }
            }
            return .localized(default: fallback, byLocale: byLocale)
        default:
            diagnostics.report(
                .typeMismatch, at: node,
                "expected a tagline string, or a mapping of locales like {default: …, de: …}, for app \(id), "
                    + "found \(node.kindDescription)")
            return nil
        }
    }

    /// `de`, `ja`, `pt-BR`, `zh-Hant`, `en_GB`: a 2–3 letter language, then optional subtags.
    static func isLocaleTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let language = parts.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// Pins, exclusions, taglines, product pages and labels together: the "overlay entries" `check-config` reports.
    public var entryCount: Int {
        order.count + excluded.count + taglines.count + productPages.count
            + labels.overrides.values.reduce(0) { $0 + $1.count }
    }
}
