import Locking

/// Answers one call. Usable from any thread, any time: on the event loop inside the handler
/// (the fast path — the reply is written with the rest of that read's replies) or later from
/// another thread (the slow path — the loop is woken to write it).
///
/// Replies are written in call order per connection, whatever order handlers finish in. The
/// first final reply (or error) ends the call; anything sent after it is ignored. For a
/// `oneway` call everything is dropped. `continues` replies to a call made without `more` are
/// dropped too: only the final reply is sent, as the protocol requires.
public final class VarlinkResponder: @unchecked Sendable {
    let loop: ServerLoop
    let connectionID: UInt64
    let sequence: UInt64
    /// Whether the caller accepts `continues` replies.
    public let more: Bool
    /// Whether the caller wants no reply.
    public let oneway: Bool
    /// One per call, so an inline lock rather than an `NSLock` object (one allocation less per call).
    private let state = Lock(State())

    private struct State {
        var finished = false
        var closed = false
        var closeHandlers: [@Sendable () -> Void] = []
    }

    init(loop: ServerLoop, connectionID: UInt64, sequence: UInt64, more: Bool, oneway: Bool) {
        self.loop = loop
        self.connectionID = connectionID
        self.sequence = sequence
        self.more = more
        self.oneway = oneway
    }

    /// Sends `parameters` (an object; `.null` means `{}`). With `continues: true` more replies
    /// follow; the last one must have `continues: false`.
    public func reply(_ parameters: JSONValue = .emptyObject, continues: Bool = false) {
        if oneway || (continues && !more) || isFinished { return }
        send(EncodedReply(parameters: parameters, continues: continues))
    }

    /// Sends parameters that are already serialized JSON object bytes (no re-encoding).
    public func reply(encodedParameters: [UInt8], continues: Bool = false) {
        if oneway || (continues && !more) || isFinished { return }
        send(EncodedReply(encodedParameters: encodedParameters, continues: continues))
    }

    /// Sends a complete pre-encoded reply: the cheapest way to answer a hot call.
    public func reply(_ encoded: EncodedReply) {
        send(encoded)
    }

    /// Ends the call with an error reply.
    public func fail(_ error: VarlinkError) {
        if oneway || isFinished { return }
        send(EncodedReply(error: error))
    }

    /// Ends the call with the error `name` and `parameters`.
    public func fail(name: String, parameters: JSONValue = .emptyObject) {
        fail(VarlinkError(name: name, parameters: parameters))
    }

    private var isFinished: Bool { state.withLock { $0.finished } }

    private func send(_ encoded: EncodedReply) {
        if oneway || (encoded.continues && !more) { return }
        let final = !encoded.continues
        let alreadyFinished = state.withLock { state in
            if state.finished { return true }
            if final { state.finished = true }
            return false
        }
        if alreadyFinished { return }
        loop.deliver(connectionID: connectionID, sequence: sequence, bytes: encoded.bytes, final: final)
    }

    /// True once the peer's connection is gone: stop producing replies (e.g. end a Watch).
    public var isConnectionClosed: Bool { state.withLock { $0.closed } }

    /// Runs `body` once when the connection closes (on the event loop — keep it short), or
    /// right away if it already has. Streams use it to unsubscribe.
    public func onConnectionClosed(_ body: @escaping @Sendable () -> Void) {
        let alreadyClosed = state.withLock { state in
            if state.closed { return true }
            state.closeHandlers.append(body)
            return false
        }
        if alreadyClosed { body() }
    }

    func markClosed() {
        let handlers = state.withLock { state in
            state.closed = true
            state.finished = true
            defer { state.closeHandlers = [] }
            return state.closeHandlers
        }
        for handler in handlers { handler() }
    }
}
