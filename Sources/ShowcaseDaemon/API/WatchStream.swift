import Foundation
import ShowcaseAPI
import ShowcaseCore
import Varlink

/// One `Roster.Watch` call: the current state first, then one reply per new revision of a watched
/// storefront's roster.
///
/// Store changes only mark storefronts dirty; a serial queue then sends each dirty storefront's *latest*
/// state. After sending, the stream waits until the connection has written those replies
/// (`whenOutputDrained`) before it sends again, so a slow reader gets the latest state, not a backlog of
/// every revision queued in the daemon (which would also end in it being dropped at the output cap). A
/// revision is a change of what the reply shows: the stream compares the apps it would send with the ones it
/// sent, so an identical refresh, a rating-only change, or a change in apps this host's query filters out sends
/// nothing, while a reload that changes the served answer (overlay, attribution; the service announces every
/// reload) is sent with a new revision. The revision sent is the store's, or one past the last one sent when the
/// change came from a reload, so it only grows. The reply itself is encoded once for every stream that sends the
/// same revision of the same apps (``WatchReplies``), so a thousand subscribers cost one encoding and a thousand
/// writes of the same bytes. A roster that cannot be served — a diagnostic (malformed response, missing entity
/// parameter, host not found), or a transport failure with nothing cached — ends the stream with that error, as
/// `Get` answers it, because a watcher must not mistake it for an empty roster.
final class WatchStream: @unchecked Sendable {
    private let host: String
    private let filter: Storefront?
    private let responder: VarlinkResponder
    private let service: RosterService
    private var store: RosterStore { service.store }
    private var warm: WarmSet { service.warm }
    private let queue: DispatchQueue
    /// The encoded replies every stream on `queue` shares: one encoding per revision, not per subscriber.
    private let replies: WatchReplies
    // Confined to `queue`.
    /// The revision and state last sent per storefront: a new revision, or the state changing without one (a
    /// transport failure turning `warming` into `unavailable`), is sent.
    private var lastSent: [Storefront: Sent] = [:]
    private var dirty = NSLockedBox<Set<Storefront>>([])
    private var scheduled = NSLockedBox(false)
    private var watcherID: UInt64?
    private var ended = false
    /// Replies were sent and are not written yet: changes wait in `dirty` until the drained callback.
    private var awaitingDrain = false

    init(
        host: String, filter: Storefront?, responder: VarlinkResponder, service: RosterService, queue: DispatchQueue,
        replies: WatchReplies
    ) {
        self.host = host
        self.filter = filter
        self.responder = responder
        self.service = service
        self.queue = queue
        self.replies = replies
    }

    func start() {
        guard responder.more else {
            // Without `more`, Watch answers the current state once, like Get.
            queue.async { [self] in
                let storefront = filter ?? warm.all.sorted().first ?? Storefront.unitedStates
                send(storefront, continues: false, force: true)
            }
            return
        }
        queue.async { [self] in
            guard !ended else { return }  // finished (shutdown) before it started
            // Watching before reading the initial state misses no change; the queue runs any change
            // reported meanwhile after this block, and one that is already sent compares equal and is skipped.
            let id = store.watch { storefront in self.changed(storefront) }
            watcherID = id
            let store = self.store
            responder.onConnectionClosed { store.unwatch(id) }
            let initial = filter.map { [$0] } ?? warm.all.sorted()
            for storefront in initial where !ended { send(storefront, continues: true, force: true) }
            if !ended { awaitDrain() }
        }
    }

    /// Ends the stream with a final reply carrying the current state (at shutdown), so clients see a clean
    /// end instead of a cut connection.
    func finish() {
        queue.async { [self] in
            guard !ended else { return }
            let storefront = filter ?? lastSent.keys.sorted().first ?? warm.all.sorted().first
            if let storefront { send(storefront, continues: false, force: true) } else { end() }
        }
    }

    private func changed(_ storefront: Storefront) {
        if let filter, filter != storefront { return }
        dirty.withLock { _ = $0.insert(storefront) }
        let shouldSchedule = scheduled.withLock { value in
            defer { value = true }
            return !value
        }
        guard shouldSchedule else { return }
        queue.async { [self] in
            scheduled.withLock { $0 = false }
            sendDirty()
        }
    }

    /// Sends the latest state of every dirty storefront, unless earlier replies are still being written:
    /// then the drained callback sends them, so whatever changed meanwhile goes out once, as it is by then.
    private func sendDirty() {
        guard !ended, !awaitingDrain else { return }
        let pending = dirty.withLock { set in
            defer { set.removeAll() }
            return set
        }
        var sent = false
        for storefront in pending.sorted() where !ended {
            if send(storefront, continues: true, force: false) { sent = true }
        }
        if sent, !ended { awaitDrain() }
    }

    private func awaitDrain() {
        awaitingDrain = true
        responder.whenOutputDrained { [self] in
            queue.async { [self] in
                awaitingDrain = false
                sendDirty()
            }
        }
    }

    /// Sends `storefront`'s current state if its revision changed since the last reply (or `force`); returns
    /// whether a reply (or an ending error) went out.
    @discardableResult
    private func send(_ storefront: Storefront, continues: Bool, force: Bool) -> Bool {
        if responder.isConnectionClosed {
            end()
            return false
        }
        let snapshot = service.config.current
        guard let hostConfig = snapshot.host(named: host) else {
            responder.fail(ReplyEncoding.unknownHost(host))
            end()
            return true
        }
        let view = service.view(
            for: RosterRequest(snapshot: snapshot, storefront: storefront, host: hostConfig), keepWarm: false)
        let apps = view.apps.map(ReplyEncoding.app)
        let last = lastSent[storefront]
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
                responder.reply(try replies.reply(for: view, revision: revision, apps: apps))
            } else {
                responder.reply(try ReplyEncoding.watch(view, revision: revision, apps: apps), continues: continues)
                if !continues { end() }
            }
        } catch {
            responder.fail(error)
            end()
        }
        return true
    }

    private func end() {
        ended = true
        if let watcherID { store.unwatch(watcherID) }
        watcherID = nil
        onEnd?()
        onEnd = nil
    }

    /// What the last reply for a storefront showed, and the revision it carried.
    private struct Sent {
        var revision: Int
        var state: ServedState
        var apps: [RosterApp]
    }

    /// Called once when the stream ends (the registry forgets it).
    var onEnd: (@Sendable () -> Void)?
}
