import Foundation
import ShowcaseCore

/// What the export should show for one roster — a host in a storefront, in one language — this is the whole of
/// what the daemon hands the writer for it.
///
/// The writer turns it into one document per platform, at `<host>/<storefront>/<platform>.json` for the
/// storefront's default language and `<host>/<storefront>/<language>/<platform>.json` for each configured
/// language, and into the roster's lines of `index.json`.
public struct ExportRoster: Sendable {
    /// What the roster's documents should hold.
    public enum Content: Sendable {
        /// The current answer: one document per platform (a platform missing here gets an empty `apps`, which is
        /// a valid answer, not an error).
        case current(revision: Int, revisedAt: Date, apps: [Platform: [ExportedApp]])
        /// The storefront is in a diagnostic: documents written for it earlier stay exactly as they are, so the
        /// web keeps showing the last good roster while `index.json` says why it is not current. `revision` is
        /// the kept roster's, when the caller knows it (it goes to `index.json`).
        case keepLastGood(revision: Int?)
        /// Never fetched, or nothing usable yet: no document (one written earlier is removed).
        case absent
    }

    /// The host app's bundle id.
    public var host: String
    /// The storefront.
    public var storefront: Storefront
    /// The language the roster is fetched in (`fr` for `lang=fr_ca`); nil for a storefront fetched without one.
    public var language: String?
    /// Whether this is the storefront's default roster, also written at `<host>/<storefront>/<platform>.json`.
    /// Always true for a roster without a language; with languages, true for the first configured one.
    public var isDefaultLanguage: Bool
    /// The roster's state, for `index.json`.
    public var state: ExportState
    /// When the roster (current or kept) was fetched, for `index.json`; nil when never.
    public var fetchedAt: Date?
    /// The diagnostic or transport failure that keeps the roster from being current, as a sentence; nil when
    /// none. Listed in `index.json`.
    public var error: String?
    /// What its documents hold.
    public var content: Content

    /// A roster's export: `content` decides the documents, the rest goes to `index.json`.
    public init(
        host: String, storefront: Storefront, language: String? = nil, isDefaultLanguage: Bool = true,
        state: ExportState, fetchedAt: Date?, error: String? = nil, content: Content
    ) {
        self.host = host
        self.storefront = storefront
        self.language = language
        self.isDefaultLanguage = language == nil || isDefaultLanguage
        self.state = state
        self.fetchedAt = fetchedAt
        self.error = error
        self.content = content
    }

    /// Where a platform's document goes, relative to `v1/`: the language directory for a roster with a language,
    /// and the storefront's own path as well for its default roster.
    public func paths(for platform: Platform) -> [String] {
        let storefrontPath = "\(host)/\(storefront.code)"
        var paths: [String] = []
        if isDefaultLanguage { paths.append("\(storefrontPath)/\(platform.rawValue).json") }
        if let language { paths.append("\(storefrontPath)/\(language)/\(platform.rawValue).json") }
        return paths
    }

    /// The documents of a current roster, one per platform; empty for a kept or absent one.
    public var documents: [ExportDocument] {
        guard case .current(let revision, let revisedAt, let apps) = content else { return [] }
        return Platform.allCases.map { platform in
            ExportDocument(
                host: host, storefront: storefront, platform: platform, language: language, revision: revision,
                revisedAt: revisedAt, apps: apps[platform] ?? [])
        }
    }

    /// The revision its documents carry, if known.
    var revision: Int? {
        switch content {
        case .current(let revision, _, _): revision
        case .keepLastGood(let revision): revision
        case .absent: nil
        }
    }
}
