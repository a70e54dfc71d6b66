import Varlink

/// The reply of `io.showcase.Admin.Refresh`: which storefronts were refreshed and which failed.
public struct AdminRefreshReply: APIValue {
    /// A storefront whose refresh failed (its cached roster is still served).
    public struct Failure: APIValue {
        /// The alpha-2 code.
        public var storefront: String
        /// Why it failed, as a sentence.
        public var error: String

        /// A failure with every field given.
        public init(storefront: String, error: String) {
            self.storefront = storefront
            self.error = error
        }

        /// Reads one failure object.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            storefront = try object.string("storefront")
            error = try object.string("error")
        }

        /// The failure object.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 2)
            object.set("storefront", storefront)
            object.set("error", error)
            return object.object
        }
    }

    /// Storefronts refreshed, by code.
    public var refreshed: [String]
    /// Storefronts whose refresh failed, by code.
    public var failed: [Failure]

    /// A reply with every field given.
    public init(refreshed: [String], failed: [Failure]) {
        self.refreshed = refreshed
        self.failed = failed
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        refreshed = try object.strings("refreshed")
        failed = try object.array("failed", of: Failure.self)
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 2)
        object.set("refreshed", refreshed)
        object.set("failed", failed)
        return object.object
    }
}
