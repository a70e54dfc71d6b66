import Varlink

/// One reply of `io.showcase.Roster.Watch`: a storefront's roster at one revision, for the storefront's default
/// platform and no OS floor.
public struct RosterWatchReply: APIValue {
    /// The storefront's alpha-2 code.
    public var storefront: String
    /// The roster's revision: it grows whenever what the reply shows changes.
    public var revision: Int
    /// `fresh`, `stale` or `warming`.
    public var state: RosterState
    /// The apps, as `Get` without filters shows them.
    public var apps: [RosterApp]

    /// A reply with every field given.
    public init(storefront: String, revision: Int, state: RosterState, apps: [RosterApp]) {
        self.storefront = storefront
        self.revision = revision
        self.state = state
        self.apps = apps
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.string("storefront")
        revision = try object.int("revision")
        state = RosterState(rawValue: try object.string("state"))
        apps = try object.array("apps", of: RosterApp.self)
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 4)
        object.set("storefront", storefront)
        object.set("revision", revision)
        object.set("state", state.rawValue)
        object.set("apps", apps)
        return object.object
    }
}
