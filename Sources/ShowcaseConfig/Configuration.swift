import FoundationEssentials
import ShowcaseCore

/// A validated showcased configuration: every key of the YAML file with its default applied and
/// every overlay read and merged. Built only by `ConfigLoader`, so a value of this type is always
/// one that passed validation; the daemon swaps it in whole on reload or keeps the old one.
///
/// Top-level keys (sections are documented on their own types):
/// - `hosts` — list of `HostConfiguration`, required, at least one.
/// - `storefronts` — list of alpha-2 or alpha-3 codes in any case, or the scalar `all` (every App
///   Store storefront), default `[us]`: the storefronts kept warm. An entry may be a mapping
///   `{code: ca, languages: [en, fr]}` (keys `code`, required, and `languages`, a non-empty list of at most 8
///   ISO 639-1 two-letter language codes without repeats, any case, stored lowercased): that storefront is fetched once per language with `lang=fr_ca`, each its
///   own roster, and the first language is its default. A plain entry is fetched without `lang`.
/// - `default_platform` — `ios` or `macos`, default `ios`: used when a query names no platform.
/// - `refresh` — `RefreshSchedule`. `lookup` — `LookupSettings`. `cache` — `CacheSettings`.
///   `socket` — `SocketSettings`. `metrics` — `MetricsSettings` (optional). `export` — `ExportSettings`
///   (optional; absent, nothing is exported). `state` — `StateSettings`. `history` — `HistorySettings`.
/// - `attribution.provider_token` — string, default none: Apple's affiliate token (`pt`); without it
///   store URLs are left untouched. `attribution.campaign_token` — string, default none, meaning
///   `showcase-<last bundle id component, lowercased>` cut to 30 characters (`ct`). The provider token is letters,
///   digits, `.`, `_`, `-`; the campaign token follows App Store Connect's rule (`Attribution.isAcceptedCampaignToken`).
///   `attribution.campaign_tokens` — mapping from surface to campaign token, default `{}`: a surface's own `ct`
///   (SPEC §19) — `varlink` (Get, GetApp, Watch, Changes replies), `json` (export documents and the widget),
///   `html` (fragments), `email` (email variants), `feed` (Atom feeds), `site` (the site pages of SPEC §18, once
///   they exist) — each following the campaign token's rule; a surface not named uses `campaign_token`.
/// - `overlay` — path relative to this file, or an inline mapping, default none: the global overlay
///   (`order`, `excluded`, `taglines`, `product_pages`; see `Overlay+Decoding.swift`).
public struct Configuration: Sendable, Equatable {
    /// The configuration file this was read from.
    public var path: String
    /// The served hosts in file order; never empty, and the first is ``defaultHost``.
    public var hosts: [HostConfiguration]
    /// Warm storefronts, in the order written, without repeats.
    public var storefronts: [Storefront]
    /// The languages of each storefront configured as a mapping, in the order written (the first is its
    /// default); a storefront absent here is fetched without `lang`.
    public var languages: [Storefront: [RosterLanguage]]
    /// The platform a query that names none is answered for.
    public var defaultPlatform: Platform
    /// The `refresh:` section.
    public var refresh: RefreshSchedule
    /// The `lookup:` section.
    public var lookup: LookupSettings
    /// The `cache:` section.
    public var cache: CacheSettings
    /// The `socket:` section.
    public var socket: SocketSettings
    /// The `metrics:` section (defaults when absent: no textfile).
    public var metrics: MetricsSettings
    /// The `export:` section; nil when absent (no static export).
    public var export: ExportSettings?
    /// The `state:` section: where the change history and the icon index live.
    public var state: StateSettings
    /// The `history:` section.
    public var history: HistorySettings
    /// The `attribution:` tokens added to store URLs.
    public var attribution: Attribution
    /// The global overlay (already part of every host's merged `overlay`).
    public var overlay: Overlay
    /// The global overlay's file, when it came from a file.
    public var overlayFile: String?

    /// Assembles a configuration without validating it; `ConfigLoader` calls it only after every check passed.
    public init(
        path: String, hosts: [HostConfiguration], storefronts: [Storefront],
        languages: [Storefront: [RosterLanguage]] = [:], defaultPlatform: Platform = .ios,
        refresh: RefreshSchedule = RefreshSchedule(), lookup: LookupSettings = LookupSettings(),
        cache: CacheSettings, socket: SocketSettings, metrics: MetricsSettings = MetricsSettings(),
        export: ExportSettings? = nil, state: StateSettings? = nil, history: HistorySettings = HistorySettings(),
        attribution: Attribution = Attribution(), overlay: Overlay = .empty, overlayFile: String? = nil
    ) {
        self.path = path
        self.hosts = hosts
        self.storefronts = storefronts
        self.languages = languages
        self.defaultPlatform = defaultPlatform
        self.refresh = refresh
        self.lookup = lookup
        self.cache = cache
        self.socket = socket
        self.metrics = metrics
        self.export = export
        self.state = state ?? StateSettings(directory: DefaultPaths().stateDirectory)
        self.history = history
        self.attribution = attribution
        self.overlay = overlay
        self.overlayFile = overlayFile
    }

    static let keys = [
        "hosts", "storefronts", "default_platform", "refresh", "lookup", "cache", "socket", "metrics", "export",
        "state", "history", "attribution", "overlay",
    ]
    /// The keys of a mapping entry of `storefronts` (`{code: ca, languages: [en, fr]}`).
    static let storefrontEntryKeys = ["code", "languages"]
    /// The keys of `attribution`.
    static let attributionKeys = ["provider_token", "campaign_token", "campaign_tokens"]

    /// Every key a configuration or overlay file may hold, as the documentation names it: top-level keys, the
    /// keys of each section qualified by it (`lookup.timeout`), and the keys of list entries and overlays bare
    /// (`bundle_id`, `languages`, `taglines`). Read from the very lists the readers check files against, so a key a
    /// reader learns is a key `showcase.yaml(5)`'s test asks for.
    public static var documentedKeys: [String] {
        let sections: [(String, [String])] = [
            ("refresh", RefreshSchedule.keys), ("lookup", LookupSettings.keys), ("cache", CacheSettings.keys),
            ("socket", SocketSettings.keys), ("metrics", MetricsSettings.keys), ("export", ExportSettings.keys),
            ("export.icons", IconSettings.keys), ("export.site", SiteSettings.keys), ("state", StateSettings.keys),
            ("history", HistorySettings.keys),
            ("attribution", attributionKeys),
            ("attribution.campaign_tokens", AttributionSurface.names),
        ]
        return keys + sections.flatMap { section, keys in keys.map { "\(section).\($0)" } } + HostConfiguration.keys
            + storefrontEntryKeys + SiteSettings.pageKeys + Overlay.keys
    }

    /// The rosters `storefront` is kept as: one per configured language (the default first), or the one fetched
    /// without `lang`. A storefront outside the warm set (fetched on demand) is plain too.
    public func editions(of storefront: Storefront) -> [StorefrontEdition] {
        guard let languages = languages[storefront], !languages.isEmpty else { return [StorefrontEdition(storefront)] }
        return languages.map { StorefrontEdition(storefront, language: $0) }
    }

    /// The roster of `storefront` a query answers when it names no locale, and the one `Watch` follows: its first
    /// configured language, or the plain roster.
    public func defaultEdition(of storefront: Storefront) -> StorefrontEdition { editions(of: storefront)[0] }

    /// The roster of `storefront` a query with `locale` answers: the configured language matching the locale's
    /// language subtag (`fr-CA`, `fr` → `fr`), else the storefront's default (``defaultEdition(of:)``).
    public func edition(of storefront: Storefront, locale: String?) -> StorefrontEdition {
        let editions = editions(of: storefront)
        guard editions.count > 1, let wanted = locale.flatMap(RosterLanguage.subtag(of:)) else { return editions[0] }
        return editions.first { $0.language == wanted } ?? editions[0]
    }

    /// Every warm roster: each storefront's editions, in the order written.
    public var editions: [StorefrontEdition] { storefronts.flatMap { editions(of: $0) } }

    /// The host a query means when it names none: the first configured.
    public var defaultHost: HostConfiguration { hosts[0] }

    /// Every overlay file this configuration read: what a reload re-reads.
    public var overlayFiles: [String] {
        var seen = Set<String>()
        return ([overlayFile] + hosts.map(\.overlayFile)).compactMap { $0 }.filter { seen.insert($0).inserted }
    }

    /// Pins, exclusions and taglines in the global overlay and every host's own overlay.
    public var overlayEntryCount: Int {
        overlay.entryCount + hosts.reduce(0) { $0 + ($1.ownOverlay?.entryCount ?? 0) }
    }

    /// One line for `showcasectl check-config` and the daemon's log: what was loaded, in counts.
    public var summary: String {
        let codes =
            storefronts.count <= 10
            ? " (\(editions.map(\.description).joined(separator: ", ")))"
            : ""
        let hostNames = hosts.map(\.bundleID).joined(separator: ", ")
        return "\(hosts.count) \(hosts.count == 1 ? "host" : "hosts") (\(hostNames)), "
            + "\(storefronts.count) \(storefronts.count == 1 ? "storefront" : "storefronts")\(codes), "
            + "\(overlayEntryCount) overlay \(overlayEntryCount == 1 ? "entry" : "entries")"
    }
}
