/// The three lookup shapes the fixtures are named after.
public enum LookupKind: String, Sendable, Codable {
    /// `lookup?bundleId=B&country=cc` → `identity-B-cc.json`.
    case identity
    /// `lookup?id=A&entity=software&limit=200&country=cc` → `roster-A-cc.json`; with `lang=ll_cc`,
    /// `roster-A-cc-ll.json` when that file exists.
    case roster
    /// `lookup?id=A&country=cc` without `entity` → `artist-A-cc.json` (the missing-entity signature).
    case artist
    /// Anything else → `empty.json`.
    case other

    init(query: [String: String]) {
        if query["bundleId"] != nil {
            self = .identity
        } else if query["id"] != nil {
            self = query["entity"] == nil ? .artist : (query["entity"] == "software" ? .roster : .other)
        } else {
            self = .other
        }
    }
}
