import FoundationEssentials

/// What a site pass remembers for the next (SPEC §18), kept in the writer's ``ExportMemory``: what each roster held
/// (so an unchanged roster is not built to know its pages), and per file under `site/` the inputs it was rendered
/// from, the digest of its bytes and its identity — so a page whose inputs are the same and whose file is still as
/// it was left is neither rendered nor read.
struct SiteMemory: Sendable {
    /// What a roster held, as the layout needs it.
    struct Facts: Sendable, Equatable {
        /// ``ExportRoster/fingerprint`` when it was seen.
        var fingerprint: [Int]?
        /// The artist of its apps; nil when it has none.
        var artistId: Int?
        /// Its apps' ids, iOS first.
        var ids: [Int]
    }

    /// One file as last written or checked.
    struct File: Sendable {
        /// What it was rendered from (for the stylesheet and the sitemaps, its own digest).
        var inputs: ContentDigest
        /// Its bytes (a `.gz`'s: what it inflates to).
        var digest: ContentDigest
        /// Its identity, when it was settled enough to be trusted; its `.gz`'s likewise.
        var identity: FileIdentity?
        var gzipIdentity: FileIdentity?
    }

    /// `<directory>/site` the files are in.
    var root: String?
    /// By roster key (host/storefront/language).
    var facts: [String: Facts] = [:]
    /// By path under `site/`.
    var files: [String: File] = [:]
    /// When the site's sitemap is one file: `sitemap.xml` as the last pass left it and the hash of what it was built from
    /// (``SiteWriter/sitemapInputs(_:layout:pass:memory:)``).
    var sitemap: (inputs: Int, names: [String])?

    /// The parts of one group of a sitemap index (``SiteWriter/sitemapGroups(_:layout:)``): the hash of what they
    /// were built from and each part's name and newest `lastmod`.
    struct SitemapGroup: Sendable {
        var inputs: Int
        var parts: [(name: String, modified: Date?)]
    }

    /// By group, when `sitemap.xml` is an index by developer.
    var sitemapGroups: [String: SitemapGroup] = [:]

    /// An empty memory: the next pass renders every page.
    init() {}
}
