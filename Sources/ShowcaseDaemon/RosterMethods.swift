import Foundation
import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore
import Varlink

/// `io.showcase.Roster`: the read-only queries, open to anyone who can open the socket.
///
/// `Get` is the hot path: on a cache hit it answers on the event loop with bytes encoded earlier.
/// Everything else is resolved per query from the raw roster — filtering, overlay, attribution — so
/// a reload takes effect on the next call without any upstream request.
final class RosterMethods: Sendable {
    private let config: ConfigHolder
    private let store: RosterStore
    private let warm: WarmSet
    private let scheduler: RefreshScheduler
    private let replies = ReplyCache()
    private let watchQueue = DispatchQueue(label: "showcased.watch")
    private let activeWatches = NSLockedBox<[ObjectIdentifier: WatchStream]>([:])

    init(config: ConfigHolder, store: RosterStore, warm: WarmSet, scheduler: RefreshScheduler) {
        self.config = config
        self.store = store
        self.warm = warm
        self.scheduler = scheduler
    }

    func interface() throws(VarlinkError) -> VarlinkInterface {
        var interface = try VarlinkInterface(idl: ShowcaseInterfaces.roster)
        try interface.handle("Get") { [self] call, responder throws(VarlinkError) in try get(call, responder) }
        try interface.handle("GetApp") { [self] call, responder throws(VarlinkError) in try getApp(call, responder) }
        try interface.handle("Storefronts") { [self] _, responder in storefronts(responder) }
        try interface.handle("Watch") { [self] call, responder throws(VarlinkError) in try watch(call, responder) }
        return interface
    }

    // MARK: Get

    private func get(_ call: VarlinkCall, _ responder: VarlinkResponder) throws(VarlinkError) {
        let parameters = try GetParameters(call)
        let key = parameters.key
        let waitMs = parameters.waitMs
        let stamp = store.stamp
        let generation = config.generation
        if let hit = replies.lookup(key, stamp: stamp, generation: generation) {
            responder.reply(hit)
            return
        }
        let query = try resolveQuery(key)
        let storefrontStamp = store.stamp(for: query.storefront)
        let storefrontValue = storefrontStamp.value
        let answer = store.answer(
            host: query.host.bundleID, storefront: query.storefront, now: Date(),
            lifetime: query.snapshot.configuration.refresh.interval)
        switch answer.answer {
        case .warming:
            startOnDemandIfNeeded(query.storefront)
            if let waitMs, waitMs > 0 {
                waitThenAnswer(query, key: key, waitMs: Int(waitMs), responder: responder)
                return
            }
        case .roster(let roster, _):
            // Cached but outside the warm set (fetched on demand before a restart, or dropped by a reload).
            startOnDemandIfNeeded(query.storefront, cachedAt: roster.fetchedAt)
        case .failed, .unavailable:
            startOnDemandIfNeeded(query.storefront)
        }
        let built = try reply(for: query, answer: answer)
        if let expires = built.cacheUntil {
            replies.store(
                built.reply, for: key, stamp: stamp, storefrontStamp: storefrontStamp, storefrontValue: storefrontValue,
                generation: generation, expires: expires)
        }
        responder.reply(built.reply)
    }

    /// A parsed, validated query.
    struct Query {
        var snapshot: ConfigSnapshot
        var storefront: Storefront
        var host: HostConfiguration
        var platform: Platform
        var osVersion: OSVersion?
        var locale: String?
    }

    private func resolveQuery(_ key: ReplyCache.Key) throws(VarlinkError) -> Query {
        let storefront: Storefront
        do { storefront = try Storefront(parsing: key.storefront) } catch {
            throw ReplyEncoding.unknownStorefront(key.storefront)
        }
        let snapshot = config.current
        guard let host = snapshot.host(named: key.host) else { throw ReplyEncoding.unknownHost(key.host ?? "") }
        var platform = snapshot.configuration.defaultPlatform
        if let text = key.platform {
            guard let parsed = Platform(rawValue: text.lowercased()) else { throw .invalidParameter("platform") }
            platform = parsed
        }
        var osVersion: OSVersion?
        if let text = key.osVersion {
            guard let parsed = OSVersion(text) else { throw .invalidParameter("osVersion") }
            osVersion = parsed
        }
        return Query(
            snapshot: snapshot, storefront: storefront, host: host, platform: platform, osVersion: osVersion,
            locale: key.locale)
    }

    private func currentAnswer(_ query: Query) -> (answer: RosterAnswer, revision: Int, identity: HostIdentity?) {
        store.answer(
            host: query.host.bundleID, storefront: query.storefront, now: Date(),
            lifetime: query.snapshot.configuration.refresh.interval)
    }

    /// The encoded reply, and until when it may be cached (nil: do not cache).
    private func reply(
        for query: Query, answer: (answer: RosterAnswer, revision: Int, identity: HostIdentity?)
    ) throws(VarlinkError) -> (reply: EncodedReply, cacheUntil: Date?) {
        var parameters: [String: JSONValue] = [
            "storefront": .string(query.storefront.code), "host": .string(query.host.bundleID),
        ]
        switch answer.answer {
        case .roster(let roster, let freshness):
            let rosterQuery = RosterQuery(
                hostBundleId: query.host.bundleID, hostTrackId: answer.identity?.trackId ?? query.host.appID,
                platform: query.platform, osVersion: query.osVersion, locale: query.locale,
                overlay: query.host.overlay, attribution: query.snapshot.configuration.attribution)
            parameters["state"] = .string(freshness.rawValue)
            parameters["fetchedAt"] = .string(ReplyEncoding.timestamp(roster.fetchedAt))
            parameters["apps"] = .array(rosterQuery.resolve(roster).map(ReplyEncoding.app))
            let lifetime = query.snapshot.configuration.refresh.interval
            let expires =
                freshness == .fresh
                ? roster.fetchedAt.addingTimeInterval(lifetime.seconds) : Date.distantFuture
            return (EncodedReply(parameters: .object(parameters)), expires)
        case .warming:
            parameters["state"] = "warming"
            parameters["apps"] = .array([])
            return (EncodedReply(parameters: .object(parameters)), nil)
        case .failed(let error), .unavailable(let error):
            throw ReplyEncoding.error(error, storefront: query.storefront, host: query.host.bundleID)
        }
    }

    /// A storefront outside the warm set: fetch it once (concurrent queries share the fetch) and keep it warm.
    /// With a cached roster (`cachedAt`) it is scheduled from that fetch time instead — refreshed at once only
    /// if stale — so a roster served from the cache never ages unrefreshed.
    private func startOnDemandIfNeeded(_ storefront: Storefront, cachedAt fetchedAt: Date? = nil) {
        guard warm.insert(storefront) else { return }
        let scheduler = self.scheduler
        if let fetchedAt {
            Task { await scheduler.keepWarm(storefront, fetchedAt: fetchedAt) }
        } else {
            Task { _ = await scheduler.refreshNow(storefront) }
        }
    }

    /// Moves the storefront to the front of the queue and answers once it is no longer warming, or when
    /// `waitMs` has passed (then still `warming`).
    private func waitThenAnswer(_ query: Query, key: ReplyCache.Key, waitMs: Int, responder: VarlinkResponder) {
        let once = OnceFlag()
        let scheduler = self.scheduler
        let answerNow: @Sendable () -> Void = { [self] in
            guard once.claim() else { return }
            do throws(VarlinkError) {
                let refreshed = Query(
                    snapshot: config.current, storefront: query.storefront, host: query.host,
                    platform: query.platform, osVersion: query.osVersion, locale: query.locale)
                responder.reply(try reply(for: refreshed, answer: currentAnswer(refreshed)).reply)
            } catch {
                responder.fail(error)
            }
        }
        Task {
            await scheduler.prioritize(query.storefront)
            _ = await scheduler.refreshNow(query.storefront)
            answerNow()
        }
        Task {
            try? await Task.sleep(for: .milliseconds(waitMs))
            answerNow()
        }
    }

    // MARK: GetApp

    private func getApp(_ call: VarlinkCall, _ responder: VarlinkResponder) throws(VarlinkError) {
        let id = try call.int("id")
        let query = try resolveQuery(
            ReplyCache.Key(storefront: try call.string("storefront"), host: try call.optionalString("host")))
        let answer = currentAnswer(query)
        switch answer.answer {
        case .roster(let roster, _):
            startOnDemandIfNeeded(query.storefront, cachedAt: roster.fetchedAt)
            let rosterQuery = RosterQuery(
                hostBundleId: query.host.bundleID, hostTrackId: answer.identity?.trackId, platform: query.platform,
                overlay: query.host.overlay, attribution: query.snapshot.configuration.attribution)
            guard let app = rosterQuery.resolveApp(id: Int(id), in: roster) else {
                throw VarlinkError(
                    name: ShowcaseInterfaces.Error.appNotFound,
                    parameters: ["id": .int(id), "storefront": .string(query.storefront.code)])
            }
            responder.reply(["app": ReplyEncoding.app(app)])
        case .warming:
            startOnDemandIfNeeded(query.storefront)
            throw ReplyEncoding.unavailable(
                query.storefront, reason: "the \(query.storefront.code) roster is still warming; retry in a moment")
        case .failed(let error), .unavailable(let error):
            throw ReplyEncoding.error(error, storefront: query.storefront, host: query.host.bundleID)
        }
    }

    // MARK: Storefronts

    private func storefronts(_ responder: VarlinkResponder) {
        let warm = self.warm.all
        let list: [JSONValue] = Storefront.all.map { storefront in
            [
                "code": .string(storefront.code), "alpha3": .string(storefront.alpha3),
                "name": .string(storefront.name), "warm": .bool(warm.contains(storefront)),
            ]
        }
        responder.reply(["storefronts": .array(list)])
    }

    // MARK: Watch

    private func watch(_ call: VarlinkCall, _ responder: VarlinkResponder) throws(VarlinkError) {
        let storefrontText = try call.optionalString("storefront")
        let hostText = try call.optionalString("host")
        let snapshot = config.current
        guard let host = snapshot.host(named: hostText) else { throw ReplyEncoding.unknownHost(hostText ?? "") }
        var filter: Storefront?
        if let storefrontText {
            do { filter = try Storefront(parsing: storefrontText) } catch {
                throw ReplyEncoding.unknownStorefront(storefrontText)
            }
            startOnDemandIfNeeded(filter!)
        }
        let stream = WatchStream(
            host: host.bundleID, filter: filter, responder: responder, config: config, store: store, warm: warm,
            queue: watchQueue)
        if call.more {
            let id = ObjectIdentifier(stream)
            let registry = activeWatches
            stream.onEnd = { _ = registry.withLock { $0.removeValue(forKey: id) } }
            activeWatches.withLock { $0[id] = stream }
            responder.onConnectionClosed { _ = registry.withLock { $0.removeValue(forKey: id) } }
        }
        stream.start()
    }

    /// Ends every open Watch with a final reply (shutdown), so in-flight streams finish instead of being cut.
    func finishWatches() {
        let streams = activeWatches.withLock { Array($0.values) }
        for stream in streams { stream.finish() }
        watchQueue.sync {}
    }
}
