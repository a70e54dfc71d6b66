import FoundationEssentials
import ShowcaseCore
import ShowcaseHistory

/// What `Admin.Status` reports: the daemon, its configuration, the upstream counters and every warm storefront.
struct StatusReport: Sendable {
    /// One warm roster — a storefront, or one language of a storefront configured with `languages` — as the
    /// default (first) host sees it.
    struct Storefront: Sendable {
        /// The storefront.
        var storefront: ShowcaseCore.Storefront
        /// The roster's language; nil for a storefront fetched without `lang`.
        var language: RosterLanguage? = nil
        /// Its state.
        var state: ServedState
        /// How many apps `Roster.Get` serves from it for the default host and platform without an OS filter — the
        /// host app itself and overlay exclusions left out — 0 without a roster.
        var apps: Int
        /// When its roster was fetched, for `fresh` and `stale`.
        var fetchedAt: Date?
        /// When it is refreshed next.
        var nextRefreshAt: Date?
        /// How its last refresh failed, if it did.
        var lastError: LookupError?
        /// Why its last refresh could not write the cache, if it could not (the roster is served from memory).
        var cacheWriteError: String? = nil
        /// Rows of the served roster's body that did not become apps.
        var droppedRows: Int = 0
        /// Whether the served roster reached the endpoint's 200-row ceiling.
        var truncated: Bool = false
    }

    /// One configured host.
    struct Host: Sendable {
        /// Its bundle id.
        var bundleID: String
        /// Its trackId, resolved or pinned.
        var appID: Int?
        /// Its developer, once resolved.
        var artistID: Int?
        /// A transfer or an app the store no longer knows, until a re-resolution finds all well.
        var warning: String?
    }

    /// The static export (`export:`), when configured.
    struct Export: Sendable {
        /// `export.directory`.
        var directory: String
        /// When the last pass into it ended; nil before the first.
        var exportedAt: Date?
        /// How many files that pass failed to write or remove.
        var errors: Int
        /// Its first error, as a sentence; nil when it succeeded.
        var lastError: String?
    }

    /// The path of the configuration file.
    var configPath: String
    /// 1 at startup, +1 per successful reload.
    var configGeneration: Int
    /// Upstream requests, failures and throttled answers so far.
    var upstream: Upstream.Counters
    /// Every warm storefront, by code.
    var storefronts: [Storefront]
    /// Why the last reload was rejected, until one succeeds.
    var lastReloadError: String?
    /// Every configured host, in configuration order.
    var hosts: [Host] = []
    /// The static export; nil when not configured.
    var export: Export?
    /// Histories set aside while the daemon runs, whose file is still there.
    var problems: [HistorySetAside] = []
}
