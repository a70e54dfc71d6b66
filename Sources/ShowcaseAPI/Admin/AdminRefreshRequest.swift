import Varlink

/// The parameters of `io.showcase.Admin.Refresh`: fetch now, and answer when done.
public struct AdminRefreshRequest: APIValue {
    /// The storefront code to refresh; nil refreshes every warm storefront.
    public var storefront: String?

    /// A refresh of `storefront`, or of every warm storefront.
    public init(storefront: String? = nil) { self.storefront = storefront }

    /// Reads a call's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.optionalString("storefront")
    }

    /// The call's parameters; a nil `storefront` is omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 1)
        object.set("storefront", storefront)
        return object.object
    }
}
