import ShowcaseCore
import Varlink

/// The parameters of `io.showcase.Roster.GetApp`: one app of a storefront's roster, by trackId.
public struct RosterGetAppRequest: APIValue {
    /// The app's trackId.
    public var id: Int
    /// The storefront, parsed from its code (alpha-2 or alpha-3, any case) where the call is read.
    public var storefront: Storefront
    /// A configured host's bundle id; nil asks for the first host in the configuration.
    public var host: String?

    /// A query for app `id` in `storefront`.
    public init(id: Int, storefront: Storefront, host: String? = nil) {
        self.id = id
        self.storefront = storefront
        self.host = host
    }

    /// Reads a call's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        id = try object.int("id")
        storefront = try object.storefront("storefront")
        host = try object.optionalString("host")
    }

    /// The call's parameters; a nil `host` is omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 3)
        object.set("id", id)
        object.set("storefront", storefront.code)
        object.set("host", host)
        return object.object
    }
}
