import Varlink

/// The reply of `io.showcase.Admin.Reload`: the configuration was valid and now serves.
public struct AdminReloadReply: APIValue {
    /// The configuration generation now serving.
    public var generation: Int

    /// A reply naming `generation`.
    public init(generation: Int) { self.generation = generation }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        generation = try object.int("generation")
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 1)
        object.set("generation", generation)
        return object.object
    }
}
