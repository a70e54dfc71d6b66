import FoundationEssentials
import ShowcaseCore
import Varlink

/// One `Roster.Watch` call: the current state first, then one reply per new revision of a watched
/// storefront's roster.
///
/// The ``WatchHub`` tells the stream, on its queue, which storefronts changed; the stream sends each watched one's
/// *latest* state. After sending, the stream waits until the connection has written those replies
/// (`whenOutputDrained`) before it sends again, so a slow reader gets the latest state, not a backlog of
/// every revision queued in the daemon (which would also end in it being dropped at the output cap). A
/// revision is a change of what the reply shows: the stream compares the apps it would send with the ones it
/// sent, so an identical refresh, a rating-only change, or a change in apps this host's query filters out sends
/// nothing, while a reload that changes the served answer (overlay, attribution; the state announces every
/// reload) is sent with a new revision. The revision sent is the store's, or one past the last one sent when the
/// change came from a reload, so it only grows. What a storefront shows is resolved and encoded once for every
/// stream (``WatchReplies``), so a thousand subscribers cost one resolution, one encoding and a thousand writes
/// of the same bytes. A roster that cannot be served — a diagnostic (malformed response, missing entity
/// parameter, host not found), or a transport failure with nothing cached — ends the stream with that error, as
/// `Get` answers it, because a watcher must not mistake it for an empty roster.
final class WatchStream: @unchecked Sendable {
    private let host: String
    private let filter: Storefront?
    private let responder: VarlinkResponder
    private let hub: WatchHub
    private var warm: Set<Storefront> { hub.state.warm }
    // Confined to the hub's queue.
    /// The revision, state and apps last sent per storefront: a new revision, or the state changing without one (a
    /// transport failure turning `warming` into `unavailable`), is sent.
    private var lastSent: [Storefront: Sent] = [:]
    /// Storefronts that changed while replies were being written: sent once those are.
    private var dirty: Set<Storefront> = []
    private var ended = false
    /// Replies were sent and are not written yet: changes wait in `dirty` until the drained callback.
    private var awaitingDrain = false

    init(host: String, filter: Storefront?, responder: VarlinkResponder, hub: WatchHub) {
        self.host = host
        self.filter = filter
        self.responder = responder
        self.hub = hub
    }

    /// Without `more`, answers the current state once, like Get (the hub never holds such a stream).
    func answerOnce() {
        hub.queue.async { [self] in
            let storefront = filter ?? warm.sorted().first ?? Storefront.unitedStates
            send(storefront, continues: false, force: true)
        }
    }

    /// Sends the current state of every watched storefront. Called by the hub on its queue once the stream is
    /// registered: a change reported meanwhile reaches it in a later pass, and one already sent compares equal
    /// and is skipped.
    func start() {
        guard !ended else { return }  // finished (shutdown) before it started
        let hub = self.hub
        responder.onConnectionClosed { [self] in hub.queue.async { [self] in end() } }
        let initial = filter.map { [$0] } ?? warm.sorted()
        for storefront in initial where !ended { send(storefront, continues: true, force: true) }
        if !ended { awaitDrain() }
    }

    /// Ends the stream with a final reply carrying the current state (at shutdown), so clients see a clean
    /// end instead of a cut connection. On the hub's queue.
    func finish() {
        guard !ended else { return }
        let storefront = filter ?? lastSent.keys.sorted().first ?? warm.sorted().first
        if let storefront { send(storefront, continues: false, force: true) } else { end() }
    }

    /// `storefronts` (sorted) may answer differently: sends the watched ones' latest state, or, while earlier
    /// replies are still being written, remembers them for the drained callback. On the hub's queue.
    func changed(_ storefronts: [Storefront]) {
        guard !ended else { return }
        if awaitingDrain {
            for storefront in storefronts where watches(storefront) { dirty.insert(storefront) }
            return
        }
        var sent = false
        for storefront in storefronts where watches(storefront) && !ended {
            if send(storefront, continues: true, force: false) { sent = true }
        }
        if sent, !ended { awaitDrain() }
    }

    /// Every reply sent so far is written: sends what changed meanwhile, once, as it is by now. On the hub's
    /// queue.
    func outputDrained() {
        awaitingDrain = false
        guard !ended, !dirty.isEmpty else { return }
        let pending = dirty.sorted()
        dirty.removeAll()
        changed(pending)
    }

    private func watches(_ storefront: Storefront) -> Bool { filter.map { $0 == storefront } ?? true }

    private func awaitDrain() {
        awaitingDrain = true
        responder.whenOutputDrained { [hub, self] in hub.drained(self) }
    }

    /// Sends `storefront`'s current state if its revision changed since the last reply (or `force`); returns
    /// whether a reply (or an ending error) went out.
    @discardableResult
    private func send(_ storefront: Storefront, continues: Bool, force: Bool) -> Bool {
        if responder.isConnectionClosed {
            end()
            return false
        }
        guard let current = hub.replies.current(host: host, storefront: storefront) else {
            responder.fail(ReplyEncoding.unknownHost(host))
            end()
            return true
        }
        let view = current.view
        let apps = current.apps
        let last = lastSent[storefront]
        // The apps are the shared bytes while they stay the same: equal storage compares without a walk.
        if !force, let last, last.state == view.state, last.apps == apps { return false }
        let revision =
            switch last {
            case .none: view.revision
            case .some(let last) where force && last.state == view.state && last.apps == apps: last.revision
            case .some(let last): max(view.revision, last.revision + 1)
            }
        lastSent[storefront] = Sent(revision: revision, state: view.state, apps: apps)
        do throws(VarlinkError) {
            if continues, responder.more, !responder.oneway {
                responder.reply(try current.reply(revision: revision))
            } else {
                responder.reply(
                    encodedParameters: try ReplyEncoding.watch(view, revision: revision, apps: apps),
                    continues: continues)
                if !continues { end() }
            }
        } catch {
            responder.fail(error)
            end()
        }
        return true
    }

    private func end() {
        guard !ended else { return }
        ended = true
        hub.remove(self)
    }

    /// What the last reply for a storefront showed, and the revision it carried.
    private struct Sent {
        var revision: Int
        var state: ServedState
        var apps: WatchApps
    }
}
