import FoundationEssentials
import ShowcaseCore

/// `export.feed`: the Atom feed `<platform>.atom` beside each document (``AtomFeed``), from the roster's
/// ``ExportRoster/changes``. Written by the export's rules like the document: only when its bytes change, with its
/// `.gz`, kept while the roster is in a diagnostic.
public struct AtomFeedRenderer: DocumentRenderer {
    /// A renderer; it has no settings of its own (the `self` link comes from the context's `public_url`).
    public init() {}

    /// `.atom`.
    public var suffix: String { ".atom" }

    /// The feed of `document`'s platform.
    public func render(_ document: ExportDocument, in context: RenderContext) -> [UInt8] {
        let roster = context.roster
        let feedPath = Self.feedPath(of: context.documentPath)
        let feed = AtomFeed(
            host: roster.host, storefront: roster.storefront, language: roster.language,
            isDefaultLanguage: roster.isDefaultLanguage, platform: document.platform, artistName: roster.artistName,
            entries: roster.changes, quietSince: Self.quietSince(of: roster, document: document),
            selfURL: context.publicURLIsAbsolute ? context.publicURL(of: feedPath) : nil, labels: roster.labels)
        return feed.rendered()
    }

    /// An empty feed's `updated`: the history's baseline time; for a roster without one yet (read from the cache,
    /// not fetched since the history began) when it was fetched, which an overlay edit does not move (the
    /// document's revision time does, and the feed would be rewritten for nothing).
    static func quietSince(of roster: ExportRoster, document: ExportDocument) -> Date {
        roster.changesSince ?? roster.fetchedAt ?? document.revisedAt
    }

    /// `com.example.Host/de/ios.json` → `com.example.Host/de/ios.atom`.
    static func feedPath(of documentPath: String) -> String {
        documentPath.hasSuffix(".json") ? String(documentPath.dropLast(5)) + ".atom" : documentPath + ".atom"
    }
}
