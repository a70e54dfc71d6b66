import ShowcaseCore
import Varlink

/// The parameters of `io.showcase.Admin.Refresh`: fetch now, and answer when done.
public struct AdminRefreshRequest: APIValue {
    /// The storefront to refresh, parsed from its code where the call is read; nil refreshes every warm storefront.
    public var storefront: Storefront?

    /// A refresh of `storefront`, or of every warm storefront.
    public init(storefront: Storefront? = nil) { self.storefront = storefront }

    /// Reads a call's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.optionalStorefront("storefront")
    }

    /// The call's parameters; a nil `storefront` is omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 1)
        object.set("storefront", storefront?.code)
        return object.object
    }
}
