import ShowcaseCore

/// The daemon's two Varlink interfaces: their IDL text and the fully qualified names of their methods and errors.
///
/// `org.varlink.service.GetInterfaceDescription` returns these strings, so third-party clients
/// (`varlinkctl`, the Python and Go libraries) can introspect and type-check calls; the method set and
/// error names are the contract with `showcasectl` and every other client (README, "The socket API").
/// The typed values of each method's parameters live beside this file (`RosterGetRequest`, `AdminStatusReply`, …).
public enum ShowcaseInterfaces {
    /// `io.showcase.Roster`, the interface name.
    public static let rosterName = "io.showcase.Roster"
    /// `io.showcase.Admin`, the interface name.
    public static let adminName = "io.showcase.Admin"

    /// `io.showcase.Roster`: read-only queries, open to anyone who can open the socket.
    public static let roster = """
        interface io.showcase.Roster

        \(AppField.idlType)

        # state: fresh | stale | warming (never fetched yet; apps is empty, which does NOT mean "no apps")
        method Get(storefront: string, host: ?string, platform: ?string, device: ?string,
                   osVersion: ?string, locale: ?string, waitMs: ?int)
            -> (storefront: string, host: string, state: string, fetchedAt: ?string, apps: []App)
        method GetApp(id: int, storefront: string, host: ?string) -> (app: App)
        method Storefronts() -> (storefronts: [](code: string, alpha3: string, name: string, warm: bool))
        # With more: one reply per roster change (a new revision of that storefront's roster);
        # identical refreshes send nothing; a slow reader gets the latest state, not a backlog.
        method Watch(storefront: ?string, host: ?string) -> (storefront: string, revision: int,
                   state: string, apps: []App)
        # What changed in a roster, newest first, as the overlay shows it now (excluded apps never appear).
        # since: only entries with serial > since; limit: at most this many (default 100, 1...1000, else
        # InvalidParameter). Newest first (descending serial); when more match than limit: without since the
        # newest, with since the oldest after it (a client paging forward never skips one). latest: the newest
        # serial recorded. A valid storefront not kept warm answers latest 0 and no entries (no fetch).
        # more: entries newer than the newest returned were left out (past limit, or past what one reply may
        # carry: a reply stays within the socket's reply limit, returning the oldest that fit); ask again
        # with since = the newest serial returned. locale: which language's roster, as Get's locale picks it (a
        # storefront with languages keeps one history per language; omitted: the storefront's default).
        # language: the language of the roster answered (null for a storefront fetched without one);
        # languages: for a storefront with languages, each language's roster and its newest serial.
        method Changes(storefront: string, host: ?string, since: ?int, limit: ?int, locale: ?string)
            -> (storefront: string, host: string, latest: int, changes: []Change, more: ?bool,
                language: ?string, languages: ?[](language: string, latest: int))
        # kind: added | removed | updated (version, versionDate, releaseNotes) | price (formattedPrice,
        # previousFormattedPrice); at: when the change was detected
        type Change (serial: int, at: string, kind: string, id: int, name: string, platform: string,
                     storeUrl: string, iconUrl: string, version: ?string, versionDate: ?string,
                     releaseNotes: ?string, formattedPrice: ?string, previousFormattedPrice: ?string)
        # Not admin-only: what a monitoring check needs. state: ok | degraded | warming;
        # a storefront's state: fresh | stale | warming | unavailable | failed (a diagnostic, named in error);
        # problems: what an operator should look at (kind history: a change history set aside), degraded
        method Health() -> (state: string, refreshIntervalSeconds: int,
                   storefronts: [](code: string, state: string, ageSeconds: ?int, error: ?string),
                   problems: ?[](kind: string, host: ?string, storefront: ?string, detail: string))

        error UnknownStorefront (storefront: string)
        error UnknownHost (host: string)
        error AppNotFound (id: int, storefront: string)
        error HostAppNotFound (host: string, storefront: string)
        error MalformedResponse (storefront: string, detail: string)
        error MissingEntityParameter (storefront: string)
        error Unavailable (storefront: string, reason: string)   # transport failed and nothing cached

        """

    /// `io.showcase.Admin`: status and state-changing methods, for root, the daemon's uid and
    /// `socket.admin_uids` only.
    public static let admin = """
        interface io.showcase.Admin
        method Status() -> (version: string, configPath: string, configGeneration: int,
                   lastReloadError: ?string, upstream: (requests: int, failures: int,
                   throttled: int), storefronts: [](code: string, state: string,
                   fetchedAt: ?string, nextRefreshAt: ?string, apps: int, lastError: ?string,
                   language: ?string, droppedRows: int, truncated: bool),
                   hosts: [](bundleId: string, appId: ?int, artistId: ?int, warning: ?string),
                   export: ?(directory: string, exportedAt: ?string, errors: int, lastError: ?string),
                   problems: ?[](kind: string, host: ?string, storefront: ?string, detail: string))
        method Reload() -> (generation: int)          # validate, then swap atomically, or change nothing
        method Refresh(storefront: ?string) -> (refreshed: []string, failed: [](storefront: string, error: string))
        # write the static export now; errors: what could not be written or removed (the rest is current)
        method Export() -> (directory: string, written: int, unchanged: int, removed: int, errors: []string)
        method Metrics() -> (text: string)            # the Prometheus text exposition, format 0.0.4
        error ConfigInvalid (file: string, line: int, column: int, message: string)
        error ExportNotConfigured ()

        """

    /// Fully qualified method names, so callers cannot misspell them.
    public enum Method {
        /// One storefront's roster, filtered and overlaid for the query (`RosterGetRequest` → `RosterGetReply`).
        public static let get = "io.showcase.Roster.Get"
        /// One app of a storefront's roster (`RosterGetAppRequest` → `RosterGetAppReply`).
        public static let getApp = "io.showcase.Roster.GetApp"
        /// Every storefront, and whether it is kept warm (→ `RosterStorefrontsReply`).
        public static let storefronts = "io.showcase.Roster.Storefronts"
        /// A roster, then once per new revision; needs `more` (`RosterWatchRequest` → `RosterWatchReply`).
        public static let watch = "io.showcase.Roster.Watch"
        /// The daemon's overall state and each warm storefront's, for monitoring; not admin-only
        /// (→ `RosterHealthReply`).
        public static let health = "io.showcase.Roster.Health"
        /// What changed in a storefront's roster, newest first (`RosterChangesRequest` → `RosterChangesReply`).
        public static let changes = "io.showcase.Roster.Changes"
        /// Version, configuration, upstream counters, one entry per warm storefront (→ `AdminStatusReply`).
        public static let status = "io.showcase.Admin.Status"
        /// Validate the configuration and swap it in, or change nothing (→ `AdminReloadReply`).
        public static let reload = "io.showcase.Admin.Reload"
        /// Fetch now and answer when done (`AdminRefreshRequest` → `AdminRefreshReply`).
        public static let refresh = "io.showcase.Admin.Refresh"
        /// Bring the static export up to date now and answer when done (→ `AdminExportReply`).
        public static let export = "io.showcase.Admin.Export"
        /// The Prometheus text exposition of the daemon's metrics (→ `AdminMetricsReply`).
        public static let metrics = "io.showcase.Admin.Metrics"
    }

    /// Fully qualified error names, so handlers cannot misspell them (`ShowcaseErrorReply` carries their
    /// parameters).
    public enum Error {
        /// The storefront code is not an App Store storefront.
        public static let unknownStorefront = "io.showcase.Roster.UnknownStorefront"
        /// The host bundle id is not one of the configured hosts.
        public static let unknownHost = "io.showcase.Roster.UnknownHost"
        /// No app with that id in the storefront's roster.
        public static let appNotFound = "io.showcase.Roster.AppNotFound"
        /// The identity lookup found no app with the host's bundle id in that storefront: usually a typo in
        /// `hosts[].bundle_id`.
        public static let hostAppNotFound = "io.showcase.Roster.HostAppNotFound"
        /// The upstream answer could not be used as a lookup reply; the cache is not served in its place.
        public static let malformedResponse = "io.showcase.Roster.MalformedResponse"
        /// Upstream answered with results but no apps: the signature of a request missing `entity=software`.
        public static let missingEntityParameter = "io.showcase.Roster.MissingEntityParameter"
        /// The transport failed (network, timeout, 5xx, throttling) and nothing is cached to serve instead.
        public static let unavailable = "io.showcase.Roster.Unavailable"
        /// A reload or check found a mistake in the configuration; carries `file`, `line`, `column`, `message`.
        public static let configInvalid = "io.showcase.Admin.ConfigInvalid"
        /// `Export` was called but the configuration has no `export.directory`.
        public static let exportNotConfigured = "io.showcase.Admin.ExportNotConfigured"
    }
}
