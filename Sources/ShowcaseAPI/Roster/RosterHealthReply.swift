import Varlink

/// The reply of `io.showcase.Roster.Health`: what a monitoring check needs, open to anyone who may read rosters
/// (`Admin.Status` needs admin rights; a check run by a member of the socket's group must not).
public struct RosterHealthReply: APIValue {
    /// One warm storefront's roster, as the default host sees it.
    public struct Storefront: APIValue {
        /// The alpha-2 code.
        public var code: String
        /// `fresh`, `stale`, `warming`, `unavailable` or `failed`: the state `Roster.Get` and `Admin.Status` show.
        public var state: RosterState
        /// Seconds since the served roster was fetched; nil when no roster is served (warming, unavailable,
        /// failed).
        public var ageSeconds: Int?
        /// For `unavailable` and `failed`, the fully qualified error `Roster.Get` answers with
        /// (`io.showcase.Roster.MalformedResponse`); nil otherwise.
        public var error: String?

        /// An entry with every field given.
        public init(code: String, state: RosterState, ageSeconds: Int?, error: String?) {
            self.code = code
            self.state = state
            self.ageSeconds = ageSeconds
            self.error = error
        }

        /// Reads one storefront object.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            code = try object.string("code")
            state = RosterState(rawValue: try object.string("state"))
            ageSeconds = try object.optionalInt("ageSeconds")
            error = try object.optionalString("error")
        }

        /// The storefront object; nil fields are omitted.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 4)
            object.set("code", code)
            object.set("state", state.rawValue)
            object.set("ageSeconds", ageSeconds)
            object.set("error", error)
            return object.object
        }
    }

    /// `ok`, `degraded` or `warming`.
    public var state: HealthState
    /// `refresh.interval` in seconds: a roster older than this is stale (a check's default maximum age is twice
    /// it).
    public var refreshIntervalSeconds: Int
    /// The warm storefronts, by code.
    public var storefronts: [Storefront]
    /// What an operator should look at (a history set aside: the state is then `degraded`); omitted when none.
    public var problems: [ServiceProblem]

    /// A reply with every field given.
    public init(
        state: HealthState, refreshIntervalSeconds: Int, storefronts: [Storefront], problems: [ServiceProblem] = []
    ) {
        self.state = state
        self.refreshIntervalSeconds = refreshIntervalSeconds
        self.storefronts = storefronts
        self.problems = problems
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        state = HealthState(rawValue: try object.string("state"))
        refreshIntervalSeconds = try object.int("refreshIntervalSeconds")
        storefronts = try object.array("storefronts", of: Storefront.self)
        problems = try object.problems()
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 4)
        object.set("state", state.rawValue)
        object.set("refreshIntervalSeconds", refreshIntervalSeconds)
        object.set("storefronts", storefronts)
        object.set(problems: problems)
        return object.object
    }
}
