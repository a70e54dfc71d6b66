import FoundationEssentials
import ShowcaseCore

/// What a history entry may be, written or read (SPEC §20): the log is as untrusted as the cache, so every entry
/// read back passes the checks a recorded one did, and nothing in it can trap the daemon or grow without bound.
extension HistoryEntry {
    /// The largest serial: every JSON reader keeps integers up to 2⁵³ exact, and serials this far from
    /// `Int.max` leave every sum the daemon makes with them far from overflowing.
    public static let maximumSerial = 1 << 53
    /// The serials a log may hold: a line outside them sets the log aside.
    public static let serials = 1...maximumSerial
    /// The largest entry: one log line, its final `\n` included. A log therefore holds at most `history.keep`
    /// times this (plus the compaction slack), and one roster's feed stays within a few hundred KiB.
    public static let maximumLineBytes = 8 << 10
    /// How far after its detection a release date may lie: Apple's dates are in UTC, a storefront's day may
    /// start earlier than the daemon's, and a date years ahead would pin a feed's `updated` there.
    public static let releaseDateLead: TimeInterval = 86_400

    /// `versionDate` as an instant: a real RFC 3339 date (year 0001–9999, nothing rolled over) no more than
    /// ``releaseDateLead`` after `at`; nil otherwise, and the entry then counts from its detection time.
    public var releaseDate: Date? {
        guard let text = versionDate, let date = RFC3339.parse(text),
            date.timeIntervalSince(at) <= Self.releaseDateLead
        else { return nil }
        return date
    }

    /// Whether `at` can be written as an RFC 3339 time (0001–9999).
    var hasWritableTime: Bool { at >= RFC3339.earliest && at <= RFC3339.latest }

    /// The entry as it is recorded: a `versionDate` that is no ``releaseDate`` dropped, and texts cut (with `…`:
    /// the release notes when they can take the whole cut, else the longest text) until its line fits
    /// ``maximumLineBytes``; nil when even its URLs alone do not fit (a URL cut is no URL): it is not recorded.
    public func fitted() -> HistoryEntry? {
        var entry = self
        if entry.releaseDate == nil { entry.versionDate = nil }
        var size = entry.line.count
        while size > Self.maximumLineBytes {
            // Each turn shortens one text by at least the excess (a character JSON escapes takes more bytes on
            // the line than in the text, so the line shrinks at least as much), or empties it: the loop ends.
            let excess = size - Self.maximumLineBytes + ReleaseNotes.cutMark.utf8.count
            let field =
                entry.length(.releaseNotes) >= excess
                ? .releaseNotes : Text.allCases.max { entry.length($0) < entry.length($1) } ?? .name
            let length = entry.length(field)
            guard length > 0 else { return nil }
            entry.cut(field, toBytes: length - excess)
            size = entry.line.count
        }
        return entry
    }

    /// The texts ``fitted()`` may cut (an id, a URL or a time cut would be wrong, not shorter).
    private enum Text: CaseIterable {
        case name, version, releaseNotes, formattedPrice, previousFormattedPrice
    }

    private func length(_ text: Text) -> Int {
        switch text {
        case .name: name.utf8.count
        case .version: version?.utf8.count ?? 0
        case .releaseNotes: releaseNotes?.utf8.count ?? 0
        case .formattedPrice: formattedPrice?.utf8.count ?? 0
        case .previousFormattedPrice: previousFormattedPrice?.utf8.count ?? 0
        }
    }

    private mutating func cut(_ text: Text, toBytes bytes: Int) {
        switch text {
        case .name: name = ReleaseNotes.capped(name, toBytes: bytes) ?? ""
        case .version: version = ReleaseNotes.capped(version, toBytes: bytes)
        case .releaseNotes: releaseNotes = ReleaseNotes.capped(releaseNotes, toBytes: bytes)
        case .formattedPrice: formattedPrice = ReleaseNotes.capped(formattedPrice, toBytes: bytes)
        case .previousFormattedPrice:
            previousFormattedPrice = ReleaseNotes.capped(previousFormattedPrice, toBytes: bytes)
        }
    }

    /// Why the entry, read back, must not be shown under `rules` (§5: its store URL an App Store page, its icon
    /// under `lookup.artwork_hosts`), or nil when it may be.
    public func refusal(under rules: URLRules) -> String? {
        if !rules.allowsStoreURL(storeUrl) { return URLRules.foreignStoreURL }
        if !rules.allowsIconURL(iconUrl) { return URLRules.foreignIconURL }
        return nil
    }
}
