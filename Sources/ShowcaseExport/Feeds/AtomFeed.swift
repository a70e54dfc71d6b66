import FoundationEssentials
import ShowcaseCore
import ShowcaseHistory

/// The Atom 1.0 feed (RFC 4287) of one exported document (SPEC §15): that roster's change entries for the
/// document's platform, newest first. Pure: the same inputs give the same bytes, so an unchanged history
/// leaves the `.atom` file (and its mtime, and nginx's ETag) alone.
///
/// - Feed `id` `tag:showcased,2026:<host>/<storefront>[/<language>]/<platform>`; `title`; `author` the developer's
///   `artistName`; `updated` the newest entry's, or the baseline's time while there is none (stable while nothing
///   changes); a `self` link only when `export.public_url` is absolute (a relative one is no IRI a reader keeps).
/// - Per entry: `id` `tag:showcased,2026:<host>/<storefront>[/<language>]/<serial>` (the language only for a
///   non-default language's roster: serials count per roster), `title` (the name, and the version for
///   `updated`), `updated` (`versionDate` for `updated`, else when it was detected), an alternate `link` to the
///   store URL, `category term="<kind>"`, a one-line `summary`, and `content type="text"` with the release notes.
///
/// The words the feed writes itself — its title, each entry's summary — are in the roster's language
/// (``language(_:)``, `fr-CA`), from ``labels``, and `<feed>` carries it as `xml:lang` (SPEC §19).
///
/// Every upstream text is escaped for XML and stripped of characters XML 1.0 forbids (``XMLText``).
public struct AtomFeed: Sendable {
    /// The host app's bundle id, as the export path spells it.
    public var host: String
    /// The roster's storefront.
    public var storefront: Storefront
    /// The roster's language; nil for a storefront fetched without one.
    public var language: String?
    /// Whether the roster is the storefront's default language (its entry ids then carry no language).
    public var isDefaultLanguage: Bool
    /// The document's platform: only its entries are in the feed.
    public var platform: Platform
    /// The developer's name (`artistName`), the feed's author; nil falls back to the host's bundle id.
    public var artistName: String?
    /// The roster's history as shown (overlay and attribution applied), in any order.
    public var entries: [HistoryEntry]
    /// The feed's `updated` while it has no entry: the baseline's time (else the document's revision time).
    public var quietSince: Date
    /// The feed's own URL when `export.public_url` is absolute (`https://…/v1/<host>/de/ios.atom`); nil otherwise.
    public var selfURL: String?
    /// The words of the title and summaries: the built-in table under the overlay's `labels`.
    public var labels: Labels

    /// A feed with every input given.
    public init(
        host: String, storefront: Storefront, language: String?, isDefaultLanguage: Bool, platform: Platform,
        artistName: String?, entries: [HistoryEntry], quietSince: Date, selfURL: String?, labels: Labels = .builtIn
    ) {
        self.host = host
        self.storefront = storefront
        self.language = language
        self.isDefaultLanguage = isDefaultLanguage
        self.platform = platform
        self.artistName = artistName
        self.entries = entries
        self.quietSince = quietSince
        self.selfURL = selfURL
        self.labels = labels
    }

    /// The feed's language, its `xml:lang` and the one its words are in: `fr-CA`, or the storefront's locale.
    public var xmlLanguage: String { storefront.webLanguage(language) }

    /// The roster's part of every id: `<host>/<storefront>[/<language>]`.
    var rosterPath: String {
        "\(host)/\(storefront.code)" + (isDefaultLanguage ? "" : language.map { "/" + $0 } ?? "")
    }

    /// An entry's stable id.
    public func entryId(serial: Int) -> String { "tag:showcased,2026:\(rosterPath)/\(serial)" }

    /// The feed document, UTF-8.
    public func rendered() -> [UInt8] {
        let shown = entries.filter { $0.platform == platform }.sorted { $0.serial > $1.serial }
        let updated = shown.map(Self.updated).max() ?? quietSince
        let store = platform == .macos ? "Mac App Store" : "App Store"
        let author = artistName.flatMap { $0.isEmpty ? nil : $0 } ?? host
        let tag = xmlLanguage
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\""
        xml += " xml:lang=\"\(XMLText.escaped(tag))\">\n"
        xml += "  <id>\(XMLText.escaped("tag:showcased,2026:\(rosterPath)/\(platform.rawValue)"))</id>\n"
        let place = storefront.code.uppercased() + (isDefaultLanguage ? "" : language.map { " (\($0))" } ?? "")
        let title = labels.text(.feedTitle, language: tag, ["developer": author, "store": store, "place": place])
        xml += "  <title>\(XMLText.escaped(title))</title>\n"
        xml += "  <updated>\(RFC3339.seconds(updated))</updated>\n"
        xml += "  <author><name>\(XMLText.escaped(author))</name></author>\n"
        if let selfURL {
            xml += "  <link rel=\"self\" type=\"application/atom+xml\" href=\"\(XMLText.escaped(selfURL))\"/>\n"
        }
        xml += "  <generator>showcased</generator>\n"
        for entry in shown {
            xml += "  <entry>\n"
            xml += "    <id>\(XMLText.escaped(entryId(serial: entry.serial)))</id>\n"
            let title = entry.kind == .updated ? entry.name + (entry.version.map { " " + $0 } ?? "") : entry.name
            xml += "    <title type=\"text\">\(XMLText.escaped(title))</title>\n"
            xml += "    <updated>\(RFC3339.seconds(Self.updated(entry)))</updated>\n"
            xml += "    <link rel=\"alternate\" type=\"text/html\" href=\"\(XMLText.escaped(entry.storeUrl))\"/>\n"
            xml += "    <category term=\"\(entry.kind.rawValue)\"/>\n"
            xml += "    <summary type=\"text\">\(XMLText.escaped(summary(entry, language: tag)))</summary>\n"
            if let notes = entry.releaseNotes, !notes.isEmpty {
                xml += "    <content type=\"text\">\(XMLText.escaped(notes))</content>\n"
            }
            xml += "  </entry>\n"
        }
        xml += "</feed>\n"
        return Array(xml.utf8)
    }

    /// `versionDate` for `updated` when it is a real date no more than a day after the detection
    /// (``HistoryEntry/releaseDate``), else when the change was detected: a date that cannot be or lies years
    /// ahead never becomes a feed's `updated`.
    static func updated(_ entry: HistoryEntry) -> Date {
        guard entry.kind == .updated, let date = entry.releaseDate else { return entry.at }
        return date
    }

    /// One line saying what changed, in `language`.
    func summary(_ entry: HistoryEntry, language: String) -> String {
        var values = ["name": entry.name]
        let key: LabelKey
        switch entry.kind {
        case .added:
            key = entry.formattedPrice == nil ? .feedAdded : .feedAddedPrice
            values["price"] = entry.formattedPrice
        case .removed:
            key = .feedRemoved
        case .updated:
            key = .feedUpdated
            values["version"] = entry.version ?? "?"
        case .price:
            key = .feedPrice
            values["price"] = entry.formattedPrice ?? "?"
            values["previous"] = entry.previousFormattedPrice ?? "?"
        }
        return labels.text(key, language: language, values)
    }
}
