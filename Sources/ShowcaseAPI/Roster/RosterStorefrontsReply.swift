import Varlink

/// The reply of `io.showcase.Roster.Storefronts`: every App Store storefront the daemon knows.
public struct RosterStorefrontsReply: APIValue {
    /// One storefront.
    public struct Entry: APIValue {
        /// The alpha-2 code, lowercase (`de`).
        public var code: String
        /// The alpha-3 code, uppercase (`DEU`).
        public var alpha3: String
        /// The English name (`Germany`).
        public var name: String
        /// Whether the daemon keeps this storefront's roster refreshed.
        public var warm: Bool

        /// An entry with every field given.
        public init(code: String, alpha3: String, name: String, warm: Bool) {
            self.code = code
            self.alpha3 = alpha3
            self.name = name
            self.warm = warm
        }

        /// Reads one storefront object.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            code = try object.string("code")
            alpha3 = try object.string("alpha3")
            name = try object.string("name")
            warm = try object.bool("warm")
        }

        /// The storefront object.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 4)
            object.set("code", code)
            object.set("alpha3", alpha3)
            object.set("name", name)
            object.set("warm", warm)
            return object.object
        }
    }

    /// The storefronts, in the daemon's order (by code).
    public var storefronts: [Entry]

    /// A reply listing `storefronts`.
    public init(storefronts: [Entry]) { self.storefronts = storefronts }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefronts = try object.array("storefronts", of: Entry.self)
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 1)
        object.set("storefronts", storefronts)
        return object.object
    }
}
