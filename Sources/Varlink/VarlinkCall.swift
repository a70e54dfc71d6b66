/// One method call as a handler sees it.
public struct VarlinkCall: Sendable {
    /// Fully qualified method name, e.g. `io.showcase.Roster.Get`.
    public let method: String
    /// The call's parameters, always an object: absent, `null` and `{}` all arrive as `{}`.
    public let parameters: [String: JSONValue]
    /// The caller accepts several replies (`continues: true` … final reply).
    public let more: Bool
    /// The caller wants no reply at all; anything sent through the responder is dropped.
    public let oneway: Bool
    /// The caller's process credentials, taken when the connection was accepted.
    public let peer: PeerCredentials

    /// A call as the server delivers it, one per message; tests build them to call handlers directly.
    public init(
        method: String, parameters: [String: JSONValue] = [:], more: Bool = false, oneway: Bool = false,
        peer: PeerCredentials = .unknown
    ) {
        self.method = method
        self.parameters = parameters
        self.more = more
        self.oneway = oneway
        self.peer = peer
    }

    /// The method's name without its interface (`Get`).
    public var methodName: Substring {
        guard let dot = method.lastIndex(of: ".") else { return method[...] }
        return method[method.index(after: dot)...]
    }

    /// The required string parameter `name`, or `InvalidParameter(name)`.
    public func string(_ name: String) throws(VarlinkError) -> String {
        guard let value = parameters[name]?.stringValue else { throw .invalidParameter(name) }
        return value
    }

    /// The optional string parameter `name` (absent or null → nil; wrong type → InvalidParameter).
    public func optionalString(_ name: String) throws(VarlinkError) -> String? {
        guard let value = parameters[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .invalidParameter(name) }
        return text
    }

    /// The required integer parameter `name`, or `InvalidParameter(name)`.
    public func int(_ name: String) throws(VarlinkError) -> Int64 {
        guard let value = parameters[name]?.intValue else { throw .invalidParameter(name) }
        return value
    }

    /// The optional integer parameter `name` (absent or null → nil; wrong type → InvalidParameter).
    public func optionalInt(_ name: String) throws(VarlinkError) -> Int64? {
        guard let value = parameters[name], !value.isNull else { return nil }
        guard let number = value.intValue else { throw .invalidParameter(name) }
        return number
    }

    /// The optional boolean parameter `name` (absent or null → nil; wrong type → InvalidParameter).
    public func optionalBool(_ name: String) throws(VarlinkError) -> Bool? {
        guard let value = parameters[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw .invalidParameter(name) }
        return flag
    }
}
