import Varlink

/// The reply of `io.showcase.Roster.Get`: the storefront's roster as this query sees it.
public struct RosterGetReply: APIValue {
    /// The storefront's alpha-2 code, lowercase, whatever spelling the query used.
    public var storefront: String
    /// The bundle id of the host the roster was resolved for.
    public var host: String
    /// `fresh`, `stale` or `warming` (then `apps` is empty, which does not mean "no apps").
    public var state: RosterState
    /// When the roster was fetched, RFC 3339 UTC (`2026-11-29T14:18:43Z`); nil while warming.
    public var fetchedAt: String?
    /// The apps, pinned ones first, filtered for the query.
    public var apps: [RosterApp]

    /// A reply with every field given.
    public init(storefront: String, host: String, state: RosterState, fetchedAt: String?, apps: [RosterApp]) {
        self.storefront = storefront
        self.host = host
        self.state = state
        self.fetchedAt = fetchedAt
        self.apps = apps
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.string("storefront")
        host = try object.string("host")
        state = RosterState(rawValue: try object.string("state"))
        fetchedAt = try object.optionalString("fetchedAt")
        apps = try object.array("apps", of: RosterApp.self)
    }

    /// The reply's parameters; a nil `fetchedAt` is omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 5)
        object.set("storefront", storefront)
        object.set("host", host)
        object.set("state", state.rawValue)
        object.set("fetchedAt", fetchedAt)
        object.set("apps", apps)
        return object.object
    }
}
