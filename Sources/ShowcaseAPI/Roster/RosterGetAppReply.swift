import Varlink

/// The reply of `io.showcase.Roster.GetApp`.
public struct RosterGetAppReply: APIValue {
    /// The app, with the overlay's tagline and attribution applied as in `Get`.
    public var app: RosterApp

    /// A reply carrying `app`.
    public init(app: RosterApp) { self.app = app }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        app = try object.value("app")
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 1)
        object.set("app", app)
        return object.object
    }
}
