import FoundationEssentials
import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore
import Varlink

/// `io.showcase.Roster`: the read-only queries, open to anyone who can open the socket. Each method decodes its
/// parameters, asks the ``RosterReader`` for a ``RosterView`` (or the ``ChangesReader`` for a page, the
/// ``StatusReporter`` for health), and encodes it with ``ReplyEncoding``.
///
/// `Get` is the hot path: on a cache hit it answers on the event loop with bytes encoded earlier (``ReplyCache``),
/// before any parameter is validated. Everything else is resolved per query from the raw roster — filtering,
/// overlay, attribution — so a reload takes effect on the next call without any upstream request.
final class RosterMethods: Sendable {
    private let state: StateOwner
    private let reader: RosterReader
    private let waits: RosterWaits
    private let changes: ChangesReader
    private let status: StatusReporter
    private let replies: ReplyCache
    /// The open `Watch` streams and the queue they run on.
    private let watches: WatchHub

    /// The Roster methods over the state, reading rosters with `reader` (waiting with `waits`), pages with
    /// `changes`, health with `status`; `Watch` streams open on `watches`.
    init(
        state: StateOwner, reader: RosterReader, waits: RosterWaits, changes: ChangesReader, status: StatusReporter,
        watches: WatchHub
    ) {
        self.state = state
        self.reader = reader
        self.waits = waits
        self.changes = changes
        self.status = status
        replies = ReplyCache(clock: reader.clock)
        self.watches = watches
    }

    func interface() throws(VarlinkError) -> VarlinkInterface {
        var interface = try VarlinkInterface(idl: ShowcaseInterfaces.roster)
        // A message seen before is answered from the reply cache before a call and a responder are made.
        try interface.handle(
            ShowcaseInterfaces.Method.get,
            keptAnswer: { [self] kept in
                guard let parameters = kept as? GetParameters else { return nil }
                return cachedReply(parameters)
            }
        ) { [self] call, responder throws(VarlinkError) in try get(call, responder) }
        try interface.handle(ShowcaseInterfaces.Method.getApp) { [self] call, responder throws(VarlinkError) in
            try getApp(call, responder)
        }
        try interface.handle(ShowcaseInterfaces.Method.storefronts) { [self] _, responder in
            responder.reply(ReplyEncoding.storefronts(warm: state.warm))
        }
        try interface.handle(ShowcaseInterfaces.Method.watch) { [self] call, responder throws(VarlinkError) in
            try watch(call, responder)
        }
        try interface.handle(ShowcaseInterfaces.Method.changes) { [self] call, responder throws(VarlinkError) in
            try changes(call, responder)
        }
        // Not admin-only: a monitoring check run by a member of the socket's group needs it. Off the event loop,
        // like Status: right after startup it may decode every cached roster nothing has asked for yet.
        try interface.handle(ShowcaseInterfaces.Method.health) { [self] _, responder in
            let status = self.status
            Task { responder.reply(ReplyEncoding.health(status.health())) }
        }
        return interface
    }

    // MARK: Get

    private func get(_ call: VarlinkCall, _ responder: VarlinkResponder) throws(VarlinkError) {
        // Read once per distinct message: a call whose bytes the server saw before gets the same parameters back.
        let parameters = try call.remembered { () throws(VarlinkError) in try GetParameters(call) }
        if let hit = cachedReply(parameters) {
            responder.reply(hit)
            return
        }
        let key = parameters.key
        let request = try request(key)
        let view = reader.view(for: request)
        // A oneway call gets no answer, so it never waits; a wait that cannot be admitted is answered now.
        if view.state == .warming, !responder.oneway, let waitMs = parameters.waitMs, waitMs > 0,
            let abandon = waits.whenSettled(
                request, within: .milliseconds(waitMs),
                { view in
                    do throws(VarlinkError) { responder.reply(try ReplyEncoding.get(view)) } catch {
                        responder.fail(error)
                    }
                })
        {
            responder.onConnectionClosed(abandon)
            return
        }
        let reply = EncodedReply(parameters: try ReplyEncoding.get(view))
        // A fresh reply is kept until it turns stale, a stale one until the roster changes (both as their
        // version says); warming, unavailable and failed are not kept.
        if view.state == .fresh || view.state == .stale { replies.store(reply, for: key, version: view.version) }
        responder.reply(reply)
    }

    /// The reply kept for `parameters` while it is current: `Get`'s answer for a query asked before, whether the
    /// loop asks it first (the kept answer) or the handler does.
    private func cachedReply(_ parameters: GetParameters) -> EncodedReply? {
        replies.lookup(parameters, version: state.version)
    }

    /// The validated request `key` spells, against the current configuration.
    private func request(_ key: ReplyCache.Key) throws(VarlinkError) -> RosterRequest {
        let snapshot = state.config
        guard let host = snapshot.host(named: key.host) else { throw ReplyEncoding.unknownHost(key.host ?? "") }
        return RosterRequest(
            snapshot: snapshot, storefront: key.storefront, host: host, platform: key.platform, device: key.device,
            osVersion: key.osVersion, locale: key.locale)
    }

    // MARK: GetApp

    private func getApp(_ call: VarlinkCall, _ responder: VarlinkResponder) throws(VarlinkError) {
        let parameters = try call.request(RosterGetAppRequest.self)
        let request = try request(ReplyCache.Key(storefront: parameters.storefront, host: parameters.host))
        responder.reply(try ReplyEncoding.getApp(reader.view(for: request), id: Int64(parameters.id)))
    }

    // MARK: Watch

    private func watch(_ call: VarlinkCall, _ responder: VarlinkResponder) throws(VarlinkError) {
        let parameters = try call.request(RosterWatchRequest.self)
        guard let host = state.config.host(named: parameters.host) else {
            throw ReplyEncoding.unknownHost(parameters.host ?? "")
        }
        let filter = parameters.storefront
        if let filter { reader.keepWarmOnDemand(filter) }
        let stream = WatchStream(host: host.bundleID, filter: filter, responder: responder, hub: watches)
        if call.more { watches.open(stream) } else { stream.answerOnce() }
    }

    // MARK: Changes

    private func changes(_ call: VarlinkCall, _ responder: VarlinkResponder) throws(VarlinkError) {
        let parameters = try call.request(RosterChangesRequest.self)
        let storefront = parameters.storefront
        let snapshot = state.config
        guard let host = snapshot.host(named: parameters.host) else {
            throw ReplyEncoding.unknownHost(parameters.host ?? "")
        }
        // Off the event loop: the first read of a history reads its file.
        let changes = self.changes
        Task {
            let page = changes.changes(
                storefront: storefront, host: host, since: parameters.since, limit: parameters.pageSize,
                locale: parameters.locale, snapshot: snapshot)
            responder.reply(ReplyEncoding.changes(page))
        }
    }

    /// Ends every open Watch with a final reply (shutdown), so in-flight streams finish instead of being cut.
    func finishWatches() {
        watches.finishAll()
    }
}
