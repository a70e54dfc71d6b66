/// One method call as a handler sees it.
public struct VarlinkCall: Sendable {
    /// The message's members: for a call the server read, the envelope its memo keeps for the message (one
    /// reference per call, not a copy of the name and the parameters).
    let envelope: CallEnvelope
    /// The caller's process credentials, taken when the connection was accepted.
    public let peer: PeerCredentials
    /// The server's memo entry for this call's exact message bytes, which keeps what ``remembered(_:)`` derived.
    let remembered: RememberedCall?

    /// Fully qualified method name, e.g. `io.showcase.Roster.Get`.
    public var method: String { envelope.method }
    /// The call's parameters, always an object: absent, `null` and `{}` all arrive as `{}`.
    public var parameters: [String: JSONValue] { envelope.parameters ?? [:] }
    /// The caller accepts several replies (`continues: true` … final reply).
    public var more: Bool { envelope.more }
    /// The caller wants no reply at all; anything sent through the responder is dropped.
    public var oneway: Bool { envelope.oneway }

    /// A call as the server delivers it, one per message; tests build them to call handlers directly.
    public init(
        method: String, parameters: [String: JSONValue] = [:], more: Bool = false, oneway: Bool = false,
        peer: PeerCredentials = .unknown
    ) {
        envelope = CallEnvelope(method: method, parameters: parameters, more: more, oneway: oneway)
        self.peer = peer
        remembered = nil
    }

    /// A call the server read from the message its memo keeps as `remembered`, whose envelope (with parameters
    /// present as an object) is `envelope`.
    init(envelope: CallEnvelope, peer: PeerCredentials, remembered: RememberedCall) {
        self.envelope = envelope
        self.peer = peer
        self.remembered = remembered
    }

    /// What `derive` makes of this call's parameters, kept with the server's memo of the call's message: a later
    /// call with the same bytes, on any connection, gets the same instance back without deriving it again. A hot
    /// handler uses it to decode its parameters once per distinct message rather than once per call.
    ///
    /// `derive` must depend on ``parameters`` alone — not on the configuration, the clock or the caller — since
    /// its result is reused for as long as the message stays in the memo. A call the server did not keep (a test's
    /// own call, a long message) derives every time, and so does one asked off the event-loop thread (a handler
    /// that hands the call to a task); a `derive` that throws keeps nothing.
    @inlinable
    public func remembered<Value: AnyObject & Sendable>(
        _ derive: () throws(VarlinkError) -> Value
    ) throws(VarlinkError) -> Value {
        if let value = rememberedValue() as? Value { return value }
        let value = try derive()
        // A value of another type already kept (never from the same handler) stays; this one is not kept.
        return keep(value) as? Value ?? value
    }

    /// What the memo keeps for this call's message, if anything. Not generic, so that the inlined
    /// ``remembered(_:)`` runs no unspecialised generic code.
    @usableFromInline
    func rememberedValue() -> AnyObject? {
        remembered?.derived()
    }

    /// Keeps `value` for this call's message unless something is kept already; returns what is kept.
    @usableFromInline
    func keep(_ value: AnyObject & Sendable) -> AnyObject {
        remembered?.keep(value) ?? value
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
