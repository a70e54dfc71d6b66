import Varlink

/// The reply of `io.showcase.Admin.Metrics`: the daemon's metrics in the Prometheus text exposition format
/// (0.0.4), the same text `metrics.textfile` holds.
public struct AdminMetricsReply: APIValue {
    /// The exposition text, ending in a newline.
    public var text: String

    /// A reply carrying `text`.
    public init(text: String) { self.text = text }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        text = try object.string("text")
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 1)
        object.set("text", text)
        return object.object
    }
}
