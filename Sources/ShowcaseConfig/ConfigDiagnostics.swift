import ShowcaseCore

/// Collects every mistake while typed values are read from a YAML tree, so the loader can report
/// all of a file's errors at once, and offers the typed reads the settings types are built from.
///
/// Each read returns nil after recording an error; the caller then keeps the key's default and
/// carries on, so one bad value never hides the next one.
struct ConfigDiagnostics {
    private(set) var errors: [ConfigError] = []

    mutating func report(_ code: ConfigError.Code, at node: YAMLNode, _ message: String) {
        errors.append(ConfigError(code, at: node.location, message))
    }

    mutating func report(_ error: ConfigError) {
        errors.append(error)
    }

    mutating func report(contentsOf other: [ConfigError]) {
        errors.append(contentsOf: other)
    }

    /// The keys of a mapping that has a fixed set of them, after reporting non-mappings, unknown keys
    /// (with the closest known one) and duplicate keys. `path` names the mapping in messages (`refresh`).
    mutating func fields(of node: YAMLNode, in path: String?, known: [String]) -> Fields? {
        guard case .mapping(let pairs) = node.content else {
            let what = path.map { "'\($0)'" } ?? "the top level"
            report(.typeMismatch, at: node, "expected a mapping of keys for \(what), found \(node.kindDescription)")
            return nil
        }
        var fields = Fields()
        for (key, value) in pairs {
            guard let name = key.scalar, !key.isNull else {
                report(.typeMismatch, at: key, "expected a key name, found \(key.kindDescription)")
                continue
            }
            let qualified = path.map { "\($0).\(name)" } ?? name
            guard known.contains(name) else {
                if name == "<<", !key.isExplicitString {
                    report(
                        .unknownKey, at: key,
                        "YAML merge keys ('<<') are not supported; write the keys out (anchors and aliases work)")
                    continue
                }
                var message = "unknown key '\(qualified)'"
                if let suggestion = Self.closest(to: name, among: known) {
                    message += "; did you mean '\(path.map { "\($0).\(suggestion)" } ?? suggestion)'?"
                } else {
                    message += "; known keys here: \(known.joined(separator: ", "))"
                }
                report(.unknownKey, at: key, message)
                continue
            }
            if let first = fields.values[name] {
                report(
                    .duplicate, at: key,
                    "duplicate key '\(qualified)' (first set at line \(first.key.location.line)); keep one")
                continue
            }
            fields.values[name] = (key, value)
        }
        return fields
    }

    /// A non-empty string. Numbers and booleans written without quotes are taken as their text.
    mutating func string(_ node: YAMLNode, _ key: String, expected: String) -> String? {
        guard let text = node.scalar, !node.isNull, !text.isEmpty else {
            report(.typeMismatch, at: node, "expected \(expected) for '\(key)', found \(node.kindDescription)")
            return nil
        }
        return text
    }

    /// `true` or `false` written plainly (any case). A quoted `"true"` is refused: it is a string to YAML, and
    /// accepting it here would make the same text mean different things in different keys.
    mutating func bool(_ node: YAMLNode, _ key: String) -> Bool? {
        if !node.isExplicitString, let text = node.scalar?.lowercased(), text == "true" || text == "false" {
            return text == "true"
        }
        report(.typeMismatch, at: node, "expected true or false for '\(key)', found \(node.kindDescription)")
        return nil
    }

    /// A positive duration like `24h`, at most `maximum` (SPEC §20: no duration the daemon adds to a time or
    /// multiplies may be large enough to overflow; `maximumText` is how the message spells the bound).
    mutating func duration(
        _ node: YAMLNode, _ key: String, maximum: Duration = .seconds(365 * 86_400), maximumText: String = "365d"
    ) -> Duration? {
        guard let text = node.scalar, !node.isNull, let value = ConfigValue.duration(text) else {
            report(
                .typeMismatch, at: node,
                "expected a duration like 24h for '\(key)' (units ms, s, m, h, d), found \(node.kindDescription)")
            return nil
        }
        guard value > .zero else {
            report(.invalidValue, at: node, "'\(key)' must be a positive duration, found '\(text)'")
            return nil
        }
        guard value <= maximum else {
            report(.invalidValue, at: node, "'\(key)' must be at most \(maximumText), found '\(text)'")
            return nil
        }
        return value
    }

    /// A positive byte size like `8MiB`.
    mutating func byteSize(_ node: YAMLNode, _ key: String) -> Int? {
        guard let text = node.scalar, !node.isNull, let value = ConfigValue.byteSize(text) else {
            report(
                .typeMismatch, at: node,
                "expected a size like 8MiB for '\(key)' (units B, KiB, MiB, GiB), found \(node.kindDescription)")
            return nil
        }
        guard value > 0 else {
            report(.invalidValue, at: node, "'\(key)' must be a positive size, found '\(text)'")
            return nil
        }
        return value
    }

    /// An App Store id (`trackId`): a positive integer, quoted or not.
    mutating func appID(_ node: YAMLNode, _ key: String) -> Int? {
        guard let text = node.scalar, !node.isNull, let value = ConfigValue.signedInteger(text), value > 0,
            let id = Int(exactly: value)
        else {
            report(
                .typeMismatch, at: node,
                "expected an App Store app id (a positive integer like 1234567890) for '\(key)', "
                    + "found \(node.kindDescription)")
            return nil
        }
        return id
    }

    /// The items of a sequence, or nil after reporting that something else was written.
    mutating func sequence(_ node: YAMLNode, _ key: String, expected: String) -> [YAMLNode]? {
        guard case .sequence(let items) = node.content else {
            report(.typeMismatch, at: node, "expected \(expected) for '\(key)', found \(node.kindDescription)")
            return nil
        }
        return items
    }

    /// The known key closest to `name` by edit distance, if it is close enough to be a likely typo.
    static func closest(to name: String, among known: [String]) -> String? {
        let scored = known.map { (key: $0, distance: ClosestMatch.editDistance(Array(name.lowercased()), Array($0))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        let allowed = max(2, min(name.count, best.key.count) / 3)
        return best.distance <= allowed ? best.key : nil
    }
}

/// The validated keys of one mapping, each with its key node (for positions) and value node.
struct Fields {
    var values: [String: (key: YAMLNode, value: YAMLNode)] = [:]

    /// The value of `key`, or nil when absent. An explicit `null` counts as absent: the default applies.
    subscript(key: String) -> YAMLNode? {
        guard let value = values[key]?.value, !value.isNull else { return nil }
        return value
    }

    /// The value even when it is an explicit null, for keys where null means something.
    func raw(_ key: String) -> YAMLNode? { values[key]?.value }
}
