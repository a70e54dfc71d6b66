import FoundationEssentials
import ShowcaseCore
import ShowcaseHistory

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
        /// The current answer, each document's revision kept by the writer (what the daemon exports): a document
        /// whose apps are what it already holds keeps its `revision` and `revisedAt` (and so its bytes); one whose
        /// apps changed gets the next revision, revised `now`; a new one starts at 1. Revisions so live in the
        /// documents themselves: they never go back after a restart, and a change to one platform's apps leaves
        /// the other platform's document alone.
        case latest(apps: [Platform: [ExportedApp]], now: Date)
        /// ``latest(apps:now:)`` with the apps built only if the writer needs them: a roster whose ``fingerprint``
        /// is the one the writer's last pass wrote, with every file as that pass left it, is not rendered again
        /// (twenty developers then cost one when one changes).
        case deferred(now: Date, apps: @Sendable () -> [Platform: [ExportedApp]])
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
    public var state: ServedState
    /// When the roster (current or kept) was fetched, for `index.json`; nil when never.
    public var fetchedAt: Date?
    /// The diagnostic or transport failure that keeps the roster from being current, as a sentence; nil when
    /// none. Listed in `index.json`.
    public var error: String?
    /// What its documents hold.
    public var content: Content
    /// The developer's name as the storefront shows it (`artistName`), when known: an Atom feed's author.
    public var artistName: String?
    /// The host app's own trackId, when resolved: the Smart App Banner's `app-id`.
    public var hostAppId: Int?
    /// The roster's change history as the overlay shows it now (SPEC §15: exclusions, the host, attribution
    /// applied), in any order: the Atom feeds' entries. Empty when nothing changed yet.
    public var changes: [HistoryEntry] = []
    /// When the history's baseline was taken: an empty feed's `updated`, stable while nothing changes; nil when
    /// there is none yet (the feed then uses the document's revision time).
    public var changesSince: Date?
    /// Each app's current release (date and notes) as the history's baseline keeps it: the site's "What's new".
    public var releases: [Int: HistoryBaseline.Release] = [:]
    /// The words its rendered files write themselves (feed titles and summaries, a row's accessible name), in the
    /// roster's language: the built-in table under the host's overlay `labels` (SPEC §19).
    public var labels: Labels = .builtIn
    /// Changes whenever anything the roster's documents and rendered files come from changes (its apps, the
    /// overlay and attribution that shaped them, its change history, its icons), as the caller counts such
    /// things; nil when the caller does not know (the writer then always renders). With the writer's
    /// ``ExportMemory``, an equal fingerprint means the files of the last pass are still the right ones.
    public var fingerprint: [Int]?
    /// The apps the site shows for this roster (SPEC §18: every app of the developer, the host itself included), from
    /// the apps its documents list (icons filled): nil when they are the same.
    public var siteApps: (@Sendable ([Platform: [ExportedApp]]) -> [Platform: [ExportedApp]])?

    /// A roster's export: `content` decides the documents, the rest goes to `index.json`.
    public init(
        host: String, storefront: Storefront, language: String? = nil, isDefaultLanguage: Bool = true,
        state: ServedState, fetchedAt: Date?, error: String? = nil, content: Content, artistName: String? = nil,
        hostAppId: Int? = nil, fingerprint: [Int]? = nil
    ) {
        self.host = host
        self.storefront = storefront
        self.language = language
        self.isDefaultLanguage = language == nil || isDefaultLanguage
        self.state = state
        self.fetchedAt = fetchedAt
        self.error = error
        self.content = content
        self.artistName = artistName
        self.hostAppId = hostAppId
        self.fingerprint = fingerprint
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

    /// The documents of a ``Content-swift.enum/current(revision:revisedAt:apps:)`` roster, one per platform; empty
    /// otherwise (the writer revises ``Content-swift.enum/latest(apps:now:)`` documents against the files on disk).
    public var documents: [ExportDocument] {
        guard case .current(let revision, let revisedAt, let apps) = content else { return [] }
        return Platform.allCases.map { platform in
            ExportDocument(
                host: host, storefront: storefront, platform: platform, language: language, revision: revision,
                revisedAt: revisedAt, apps: apps[platform] ?? [], labels: labels)
        }
    }

    /// The line of `index.json` for its document of `platform` at `relative`, with `revision`.
    func indexEntry(at relative: String, platform: Platform, revision: Int?) -> ExportIndexEntry {
        ExportIndexEntry(
            path: relative, host: host, storefront: storefront, platform: platform, language: language, state: state,
            revision: revision, fetchedAt: fetchedAt, error: error)
    }

    /// The revision its documents carry, when the caller gave one.
    var revision: Int? {
        switch content {
        case .current(let revision, _, _): revision
        case .keepLastGood(let revision): revision
        case .latest, .deferred, .absent: nil
        }
    }

    /// The document of `platform` revised against `previous`, the document at its path (nil when none): its bytes,
    /// their digest, and its revision. Unchanged apps give back `previous` byte for byte. The apps are rendered
    /// once, whatever revision they end up under.
    func revisedDocument(_ platform: Platform, apps: [ExportedApp], now: Date, previous: PreviousDocument?)
        -> (bytes: Data, digest: ContentDigest, revision: Int, revisedAt: Date)
    {
        var document = ExportDocument(
            host: host, storefront: storefront, platform: platform, language: language, revision: 1, revisedAt: now,
            apps: apps, labels: labels)
        let rendered = document.renderedApps()
        if let previous {
            document.revision = previous.revision
            document.revisedAt = previous.revisedAt
            let same = document.encoded(renderedApps: rendered)
            let digest = ContentDigest(same)
            if previous.holds(same, digest: digest) { return (same, digest, previous.revision, previous.revisedAt) }
            document.revision = previous.revision < Int.max ? previous.revision + 1 : 1
            document.revisedAt = now
        }
        let bytes = document.encoded(renderedApps: rendered)
        return (bytes, ContentDigest(bytes), document.revision, document.revisedAt)
    }
}
