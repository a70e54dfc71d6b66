import Varlink

/// The reply of `io.showcase.Roster.Changes`.
public struct RosterChangesReply: APIValue {
    /// The storefront code asked about, lowercased alpha-2.
    public var storefront: String
    /// The host whose roster it is.
    public var host: String
    /// The newest serial recorded for the roster (0 when none): a client that saw it has seen everything.
    public var latest: Int
    /// The changes, newest first.
    public var changes: [RosterChange]

    /// A reply with every field given.
    public init(storefront: String, host: String, latest: Int, changes: [RosterChange]) {
        self.storefront = storefront
        self.host = host
        self.latest = latest
        self.changes = changes
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.string("storefront")
        host = try object.string("host")
        latest = try object.int("latest")
        changes = try object.array("changes", of: RosterChange.self)
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 4)
        object.set("storefront", storefront)
        object.set("host", host)
        object.set("latest", latest)
        object.set("changes", changes)
        return object.object
    }
}
