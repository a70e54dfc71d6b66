import ShowcaseCore
import Varlink

/// The parameters of `io.showcase.Roster.Watch` (called with `more`): a roster's current state, then one reply
/// per new revision.
public struct RosterWatchRequest: APIValue {
    /// The storefront to watch, parsed from its code where the call is read; nil watches every warm storefront.
    public var storefront: Storefront?
    /// A configured host's bundle id; nil asks for the first host in the configuration.
    public var host: String?

    /// A watch; both fields are optional.
    public init(storefront: Storefront? = nil, host: String? = nil) {
        self.storefront = storefront
        self.host = host
    }

    /// Reads a call's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.optionalStorefront("storefront")
        host = try object.optionalString("host")
    }

    /// The call's parameters; nil fields are omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 2)
        object.set("storefront", storefront?.code)
        object.set("host", host)
        return object.object
    }
}
