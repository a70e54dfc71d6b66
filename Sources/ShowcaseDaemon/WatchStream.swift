import Foundation
import ShowcaseCore
import Varlink

/// One `Roster.Watch` call: the current state first, then one reply per new revision of a watched
/// storefront's roster.
///
/// Store changes only mark storefronts dirty; a serial queue then sends each dirty storefront's *latest*
/// state, so bursts of changes coalesce instead of queueing a backlog for a slow reader. A refresh that
/// returns identical content does not bump the revision, so it sends nothing. A diagnostic (malformed
/// response, missing entity parameter, host not found) ends the stream with that error, because a
/// watcher must not mistake it for an empty roster.
final class WatchStream: @unchecked Sendable {
    private let host: String
    private let filter: Storefront?
    private let responder: VarlinkResponder
    private let config: ConfigHolder
    private let store: RosterStore
    private let warm: WarmSet
    private let queue: DispatchQueue
    // Confined to `queue`.
    private var lastRevision: [Storefront: Int] = [:]
    private var dirty = NSLockedBox<Set<Storefront>>([])
    private var scheduled = NSLockedBox(false)
    private var watcherID: UInt64?
    private var ended = false

    init(
        host: String, filter: Storefront?, responder: VarlinkResponder, config: ConfigHolder, store: RosterStore,
        warm: WarmSet, queue: DispatchQueue
    ) {
        self.host = host
        self.filter = filter
        self.responder = responder
        self.config = config
        self.store = store
        self.warm = warm
        self.queue = queue
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
        let id = store.watch { storefront in self.changed(storefront) }
        watcherID = id
        let store = self.store
        responder.onConnectionClosed { store.unwatch(id) }
        queue.async { [self] in
            let initial = filter.map { [$0] } ?? warm.all.sorted()
            for storefront in initial where !ended { send(storefront, continues: true, force: true) }
        }
    }

    /// Ends the stream with a final reply carrying the current state (at shutdown), so clients see a clean
    /// end instead of a cut connection.
    func finish() {
        queue.async { [self] in
            guard !ended else { return }
            let storefront = filter ?? lastRevision.keys.sorted().first ?? warm.all.sorted().first
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
            let pending = dirty.withLock { set in
                defer { set.removeAll() }
                return set
            }
            for storefront in pending.sorted() where !ended { send(storefront, continues: true, force: false) }
        }
    }

    /// Sends `storefront`'s current state if its revision changed since the last reply (or `force`).
    private func send(_ storefront: Storefront, continues: Bool, force: Bool) {
        if responder.isConnectionClosed {
            end()
            return
        }
        let snapshot = config.current
        guard let hostConfig = snapshot.host(named: host) else {
            responder.fail(ReplyEncoding.unknownHost(host))
            end()
            return
        }
        let (answer, revision, identity) = store.answer(
            host: host, storefront: storefront, now: Date(),
            lifetime: snapshot.configuration.refresh.interval)
        if !force, lastRevision[storefront] == revision { return }
        lastRevision[storefront] = revision
        var parameters: [String: JSONValue] = [
            "storefront": .string(storefront.code), "revision": .int(Int64(max(revision, 0))),
        ]
        switch answer {
        case .roster(let roster, let freshness):
            let query = RosterQuery(
                hostBundleId: host, hostTrackId: identity?.trackId ?? hostConfig.appID,
                platform: snapshot.configuration.defaultPlatform, overlay: hostConfig.overlay,
                attribution: snapshot.configuration.attribution)
            parameters["state"] = .string(freshness.rawValue)
            parameters["apps"] = .array(query.resolve(roster).map(ReplyEncoding.app))
        case .warming, .unavailable:
            parameters["state"] = "warming"
            parameters["apps"] = .array([])
        case .failed(let error):
            responder.fail(ReplyEncoding.error(error, storefront: storefront, host: host))
            end()
            return
        }
        responder.reply(.object(parameters), continues: continues)
        if !continues { end() }
    }

    private func end() {
        ended = true
        if let watcherID { store.unwatch(watcherID) }
        watcherID = nil
        onEnd?()
        onEnd = nil
    }

    /// Called once when the stream ends (the registry forgets it).
    var onEnd: (@Sendable () -> Void)?
}
