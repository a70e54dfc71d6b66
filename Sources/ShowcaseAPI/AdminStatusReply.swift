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
        /// Apps in the cached roster, before any query's filter.
        public var apps: Int
        /// The last refresh's failure, until a refresh succeeds.
        public var lastError: String?

        /// An entry with every field given.
        public init(
            code: String, state: RosterState, fetchedAt: String?, nextRefreshAt: String?, apps: Int,
            lastError: String?
        ) {
            self.code = code
            self.state = state
            self.fetchedAt = fetchedAt
            self.nextRefreshAt = nextRefreshAt
            self.apps = apps
            self.lastError = lastError
        }

        /// Reads one storefront object.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            code = try object.string("code")
            state = RosterState(rawValue: try object.string("state"))
            fetchedAt = try object.optionalString("fetchedAt")
            nextRefreshAt = try object.optionalString("nextRefreshAt")
            apps = try object.int("apps")
            lastError = try object.optionalString("lastError")
        }

        /// The storefront object; nil fields are omitted.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 6)
            object.set("code", code)
            object.set("state", state.rawValue)
            object.set("fetchedAt", fetchedAt)
            object.set("nextRefreshAt", nextRefreshAt)
            object.set("apps", apps)
            object.set("lastError", lastError)
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
    /// The static export; nil when not configured.
    public var export: ExportStatus?

    /// A reply with every field given.
    public init(
        version: String, configPath: String, configGeneration: Int, lastReloadError: String?, upstream: Upstream,
        storefronts: [StorefrontStatus], export: ExportStatus? = nil
    ) {
        self.version = version
        self.configPath = configPath
        self.configGeneration = configGeneration
        self.lastReloadError = lastReloadError
        self.upstream = upstream
        self.storefronts = storefronts
        self.export = export
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        version = try object.string("version")
        configPath = try object.string("configPath")
        configGeneration = try object.int("configGeneration")
        lastReloadError = try object.optionalString("lastReloadError")
        upstream = try object.value("upstream")
        storefronts = try object.array("storefronts", of: StorefrontStatus.self)
        export = try object.optionalValue("export")
    }

    /// The reply's parameters; a nil `lastReloadError` or `export` is omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 7)
        object.set("version", version)
        object.set("configPath", configPath)
        object.set("configGeneration", configGeneration)
        object.set("lastReloadError", lastReloadError)
        object.set("upstream", upstream)
        object.set("storefronts", storefronts)
        object.set("export", export)
        return object.object
    }
}
