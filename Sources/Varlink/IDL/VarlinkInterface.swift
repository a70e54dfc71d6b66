/// One Varlink interface a service provides: its IDL text and the handlers for its methods.
///
/// The IDL is parsed on creation, so a handler for a method the IDL does not declare is a
/// programming error caught at startup, and declared methods without a handler answer
/// `org.varlink.service.MethodNotImplemented`.
public struct VarlinkInterface: Sendable {
    /// Answers one call. Runs on the server's event-loop thread, so it must not block: either
    /// reply right away through the responder (the fast path) or hand the responder to another
    /// thread and reply later (waiting, streaming). Throwing a `VarlinkError` sends it as the
    /// error reply.
    public typealias Handler = @Sendable (VarlinkCall, VarlinkResponder) throws(VarlinkError) -> Void

    /// Answers a call from what its handler kept for the call's message (``VarlinkCall/remembered(_:)``) and the
    /// handler's own state, or returns nil to let the handler run. Runs on the event-loop thread in place of the
    /// handler, with no call and no responder made: the reply-cache hit of a hot method, for a message seen before.
    public typealias KeptAnswer = @Sendable (AnyObject) -> EncodedReply?

    /// A method's handler as the server dispatches to it. A class, so that the loop's memo keeps it for a message
    /// and a call takes one reference instead of copying the handler's closure and counter.
    final class Route: Sendable {
        let handler: Handler
        let requiresMore: Bool
        /// Answers before the handler, from what it kept for the message; see ``KeptAnswer``.
        let keptAnswer: KeptAnswer?
        /// Counts the calls dispatched to this route; ``VarlinkService/add(_:)`` gives it its method's counter.
        let calls: VarlinkCallCounts.Counter

        init(
            handler: @escaping Handler, requiresMore: Bool, keptAnswer: KeptAnswer? = nil,
            calls: VarlinkCallCounts.Counter = .init()
        ) {
            self.handler = handler
            self.requiresMore = requiresMore
            self.keptAnswer = keptAnswer
            self.calls = calls
        }
    }

    /// The parsed definition.
    public let idl: VarlinkIDL
    var routes: [String: Route] = [:]

    /// The interface's name, from its IDL.
    public var name: String { idl.name }

    /// Parses `idl`; throws `.invalidInterface` if it is not valid Varlink IDL.
    public init(idl: String) throws(VarlinkError) {
        self.idl = try VarlinkIDL(parsing: idl)
    }

    /// Installs the handler for `method`: unqualified (`Get`) or qualified with this interface's name
    /// (`io.showcase.Roster.Get`), so a contract's method-name constants register handlers as they are. A qualified
    /// name of another interface is refused like an undeclared method.
    ///
    /// `requiresMore`: the method only streams, so a call without `more` is answered
    /// `org.varlink.service.ExpectedMore` before the handler runs.
    ///
    /// `keptAnswer`: for a call whose message the handler kept a value for, the server first asks it for the reply
    /// (on the event loop, a call with neither `oneway` nor `more`); the handler runs only when it returns nil. It
    /// must answer exactly what the handler would, and never block.
    public mutating func handle(
        _ method: String, requiresMore: Bool = false, keptAnswer: KeptAnswer? = nil, _ handler: @escaping Handler
    ) throws(VarlinkError) {
        let prefix = name + "."
        let member = method.hasPrefix(prefix) ? String(method.dropFirst(prefix.count)) : method
        guard idl.methods.contains(member) else {
            throw VarlinkError(
                code: .invalidInterface,
                detail: "Interface \(name) declares no method \(method); add it to the IDL before handling it.")
        }
        routes[member] = Route(handler: handler, requiresMore: requiresMore, keptAnswer: keptAnswer)
    }
}
