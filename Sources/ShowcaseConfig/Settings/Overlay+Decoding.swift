import ShowcaseCore

/// Reading an overlay (a file operators edit by hand, or the inline `overlay:` mapping).
///
/// Keys, all optional (an empty file is the empty overlay):
/// - `order` — list of app ids, default `[]`: pinned first, in this order. Not an allowlist.
/// - `excluded` — list of app ids, default `[]`: never shown.
/// - `taglines` — mapping from app id to a string (every locale) or to a mapping of locale tags
///   (`de`, `pt-BR`) with an optional `default`, default `{}`. The lookup API has no subtitle field,
///   so this is the only source of taglines.
extension Overlay {
    static let keys = ["order", "excluded", "taglines"]

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

    /// Pins, exclusions and taglines together: the "overlay entries" `check-config` reports.
    public var entryCount: Int { order.count + excluded.count + taglines.count }
}
