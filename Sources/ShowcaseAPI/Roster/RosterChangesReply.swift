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
    /// True when entries newer than the newest in ``changes`` were left out — past the call's `limit`, or past
    /// what one reply may carry (the socket's reply limit): ask again with `since` set to that newest serial.
    /// Absent (false) from daemons before it.
    public var more: Bool

    /// A reply with every field given.
    public init(storefront: String, host: String, latest: Int, changes: [RosterChange], more: Bool = false) {
        self.storefront = storefront
        self.host = host
        self.latest = latest
        self.changes = changes
        self.more = more
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.string("storefront")
        host = try object.string("host")
        latest = try object.int("latest")
        changes = try object.array("changes", of: RosterChange.self)
        more = try object.optionalBool("more") ?? false
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 5)
        object.set("storefront", storefront)
        object.set("host", host)
        object.set("latest", latest)
        object.set("changes", changes)
        object.set("more", more)
        return object.object
    }
}
