import Dispatch
import Locking
import ShowcaseCore

/// Every open `Roster.Watch` stream, and the one serial queue they all run on.
///
/// The hub is the store's only watcher on behalf of the streams: a change reaches it once, however many streams
/// are open, and one pass over the streams on the queue sends each of them its new state (``WatchReplies``
/// resolves and encodes it once for all), so a refresh costs one store callback and one queue block, not one per
/// stream. New streams and streams that finished writing (``WatchStream`` paces itself to its
/// reader) are collected the same way: one pass takes every stream opened or drained since the last one.
final class WatchHub: @unchecked Sendable {
    /// Where every stream runs: their state, ``WatchReplies`` and `streams` are confined to it.
    let queue = DispatchQueue(label: "showcased.watch")
    /// The daemon's state (the streams read its warm set).
    let state: StateOwner
    /// The replies the streams share.
    let replies: WatchReplies
    // Confined to `queue`.
    private var streams: [ObjectIdentifier: WatchStream] = [:]

    /// What happened since the last pass, from any thread.
    private struct Inbox {
        var opened: [WatchStream] = []
        var changed: Set<Storefront> = []
        var drained: [WatchStream] = []
        var scheduled = false
    }

    private let inbox = Lock(Inbox())

    /// A hub over `state`, its streams sharing `replies`. The ``DaemonRuntime`` makes it the state's watcher on
    /// behalf of the streams (``rostersChanged(_:)``).
    init(state: StateOwner, replies: WatchReplies) {
        self.state = state
        self.replies = replies
    }

    /// `storefront`'s answers may differ (from the state's observers, any thread): every stream hears of it on the
    /// next pass.
    func rostersChanged(_ storefront: Storefront) {
        post { $0.changed.insert(storefront) }
    }

    /// Starts `stream` on the queue (with the others opened since the last pass): it is told about changes from
    /// then on, and sends its current state.
    func open(_ stream: WatchStream) {
        post { $0.opened.append(stream) }
    }

    /// Forgets `stream` (it ended, or its connection closed). On the queue.
    func remove(_ stream: WatchStream) {
        dispatchPrecondition(condition: .onQueue(queue))
        streams[ObjectIdentifier(stream)] = nil
        if streams.isEmpty { replies.removeAll() }
    }

    /// Notes that `stream`'s replies are written (from Varlink's drained callback, any thread).
    func drained(_ stream: WatchStream) {
        post { $0.drained.append(stream) }
    }

    /// Ends every open stream with a final reply (shutdown) and returns once they are sent.
    func finishAll() {
        queue.sync {
            pass()  // streams opened whose pass is not scheduled yet: started, then finished with the others
            for stream in Array(streams.values) { stream.finish() }
        }
    }

    private func post(_ update: (inout Inbox) -> Void) {
        let schedule = inbox.withLock { inbox in
            update(&inbox)
            defer { inbox.scheduled = true }
            return !inbox.scheduled
        }
        if schedule { queue.async { [self] in pass() } }
    }

    /// One pass: new streams start (their first state already shows any change in this pass), drained streams may
    /// send what changed meanwhile, then every stream hears of the changes.
    private func pass() {
        let work = inbox.withLock { inbox in
            defer { inbox = Inbox() }
            return inbox
        }
        for stream in work.opened {
            streams[ObjectIdentifier(stream)] = stream
            stream.start()
        }
        for stream in work.drained { stream.outputDrained() }
        guard !work.changed.isEmpty else { return }
        let changed = work.changed.sorted()
        for stream in Array(streams.values) { stream.changed(changed) }
    }
}
