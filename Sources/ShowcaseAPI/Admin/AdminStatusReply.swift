import Varlink

/// The reply of `io.showcase.Admin.Status`: what an operator checks first.
public struct AdminStatusReply: APIValue {
    /// Requests to the lookup service since the daemon started.
    public struct Upstream: APIValue {
        /// Every request sent.
        public var requests: Int
        /// Requests that failed (transport, HTTP status, unusable body).
        public var failures: Int
        /// Of those, answers 403 or 429.
        public var throttled: Int

        /// Counters with every field given.
        public init(requests: Int, failures: Int, throttled: Int) {
            self.requests = requests
            self.failures = failures
            self.throttled = throttled
        }

        /// Reads the `upstream` object.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            requests = try object.int("requests")
            failures = try object.int("failures")
            throttled = try object.int("throttled")
        }

        /// The `upstream` object.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 3)
            object.set("requests", requests)
            object.set("failures", failures)
            object.set("throttled", throttled)
            return object.object
        }
    }

    /// One warm storefront's roster.
    public struct StorefrontStatus: APIValue {
        /// The alpha-2 code.
        public var code: String
        /// `fresh`, `stale`, `warming` or `failed`.
        public var state: RosterState
        /// When the cached roster was fetched, RFC 3339 UTC; nil when nothing is cached.
        public var fetchedAt: String?
        /// When the next refresh is due, RFC 3339 UTC; nil when none is scheduled.
        public var nextRefreshAt: String?
        /// Apps `Roster.Get` serves from the roster for the default host and platform without an OS filter (the host
        /// app itself not counted).
        public var apps: Int
        /// The last refresh's failure, until a refresh succeeds.
        public var lastError: String?
        /// The roster's language (`fr`) for a storefront configured with `languages`, which has one entry per
        /// language; nil for a storefront fetched without `lang`.
        public var language: String?
        /// Software rows of the last fetched body that did not become apps (unknown kind, missing field, repeated
        /// trackId); 0 for a roster read from the cache at startup.
        public var droppedRows: Int
        /// True when the roster holds `limit` (200) software rows, the endpoint's maximum: the developer may have
        /// more apps than the lookup can return.
        public var truncated: Bool

        /// An entry with every field given.
        public init(
            code: String, state: RosterState, fetchedAt: String?, nextRefreshAt: String?, apps: Int,
            lastError: String?, language: String? = nil, droppedRows: Int = 0, truncated: Bool = false
        ) {
            self.code = code
            self.state = state
            self.fetchedAt = fetchedAt
            self.nextRefreshAt = nextRefreshAt
            self.apps = apps
            self.lastError = lastError
            self.language = language
            self.droppedRows = droppedRows
            self.truncated = truncated
        }

        /// Reads one storefront object.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            code = try object.string("code")
            state = RosterState(rawValue: try object.string("state"))
            fetchedAt = try object.optionalString("fetchedAt")
            nextRefreshAt = try object.optionalString("nextRefreshAt")
            apps = try object.int("apps")
            lastError = try object.optionalString("lastError")
            language = try object.optionalString("language")
            // Absent in a reply from a daemon that predates the fields.
            droppedRows = try object.optionalInt("droppedRows") ?? 0
            truncated = try object.optionalBool("truncated") ?? false
        }

        /// The storefront object; nil fields are omitted.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 9)
            object.set("code", code)
            object.set("state", state.rawValue)
            object.set("fetchedAt", fetchedAt)
            object.set("nextRefreshAt", nextRefreshAt)
            object.set("apps", apps)
            object.set("lastError", lastError)
            object.set("language", language)
            object.set("droppedRows", droppedRows)
            object.set("truncated", truncated)
            return object.object
        }
    }

    /// One configured host: its resolved identity and what went wrong with it, for `hosts`.
    public struct HostStatus: APIValue {
        /// The host's bundle id.
        public var bundleId: String
        /// Its trackId, once resolved (or as pinned by `hosts[].app_id`).
        public var appId: Int?
        /// Its developer's artistId, once resolved.
        public var artistId: Int?
        /// Why this host needs a look: the app was transferred to another developer, or the store no longer knows
        /// it (its last roster is still served); nil when all is well.
        public var warning: String?

        /// An entry with every field given.
        public init(bundleId: String, appId: Int?, artistId: Int?, warning: String?) {
            self.bundleId = bundleId
            self.appId = appId
            self.artistId = artistId
            self.warning = warning
        }

        /// Reads one host object.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            bundleId = try object.string("bundleId")
            appId = try object.optionalInt("appId")
            artistId = try object.optionalInt("artistId")
            warning = try object.optionalString("warning")
        }

        /// The host object; nil fields are omitted.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 4)
            object.set("bundleId", bundleId)
            object.set("appId", appId)
            object.set("artistId", artistId)
            object.set("warning", warning)
            return object.object
        }
    }

    /// The static export, when `export.directory` is configured.
    public struct ExportStatus: APIValue {
        /// `export.directory`.
        public var directory: String
        /// When the last export pass into it ended, RFC 3339 UTC; nil before the first.
        public var exportedAt: String?
        /// How many files that pass could not write or remove.
        public var errors: Int
        /// Its first error, as a sentence; nil when it succeeded.
        public var lastError: String?

        /// An entry with every field given.
        public init(directory: String, exportedAt: String?, errors: Int, lastError: String?) {
            self.directory = directory
            self.exportedAt = exportedAt
            self.errors = errors
            self.lastError = lastError
        }

        /// Reads the `export` object.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            directory = try object.string("directory")
            exportedAt = try object.optionalString("exportedAt")
            errors = try object.int("errors")
            lastError = try object.optionalString("lastError")
        }

        /// The `export` object; nil fields are omitted.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 4)
            object.set("directory", directory)
            object.set("exportedAt", exportedAt)
            object.set("errors", errors)
            object.set("lastError", lastError)
            return object.object
        }
    }

    /// The daemon's version.
    public var version: String
    /// The configuration file it runs with.
    public var configPath: String
    /// Counts successful loads: 1 at start, one more per accepted reload.
    public var configGeneration: Int
    /// Why the last reload was rejected, until one succeeds.
    public var lastReloadError: String?
    /// Upstream request counters.
    public var upstream: Upstream
    /// The warm storefronts, by code.
    public var storefronts: [StorefrontStatus]
    /// The configured hosts, in configuration order.
    public var hosts: [HostStatus]
    /// The static export; nil when not configured.
    public var export: ExportStatus?
    /// What an operator should look at (a history set aside); omitted when none.
    public var problems: [ServiceProblem] = []

    /// A reply with every field given.
    public init(
        version: String, configPath: String, configGeneration: Int, lastReloadError: String?, upstream: Upstream,
        storefronts: [StorefrontStatus], hosts: [HostStatus] = [], export: ExportStatus? = nil,
        problems: [ServiceProblem] = []
    ) {
        self.version = version
        self.configPath = configPath
        self.configGeneration = configGeneration
        self.lastReloadError = lastReloadError
        self.upstream = upstream
        self.storefronts = storefronts
        self.hosts = hosts
        self.export = export
        self.problems = problems
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        version = try object.string("version")
        configPath = try object.string("configPath")
        configGeneration = try object.int("configGeneration")
        lastReloadError = try object.optionalString("lastReloadError")
        upstream = try object.value("upstream")
        storefronts = try object.array("storefronts", of: StorefrontStatus.self)
        // Absent in a reply from a daemon that predates the field.
        hosts = object.members["hosts"].map { $0.isNull } == false ? try object.array("hosts", of: HostStatus.self) : []
        export = try object.optionalValue("export")
        problems = try object.problems()
    }

    /// The reply's parameters; a nil `lastReloadError` or `export` is omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 9)
        object.set("version", version)
        object.set("configPath", configPath)
        object.set("configGeneration", configGeneration)
        object.set("lastReloadError", lastReloadError)
        object.set("upstream", upstream)
        object.set("storefronts", storefronts)
        object.set("hosts", hosts)
        object.set("export", export)
        object.set(problems: problems)
        return object.object
    }
}
