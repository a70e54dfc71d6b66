import ShowcaseAPI
import Varlink

/// The parameters of one `Roster.Get` call: the contract's ``RosterGetRequest``, decoded once per distinct message,
/// with the reply-cache key it spells.
///
/// The decoding rules (what is required, null as absent, the first invalid parameter in the interface's order, the
/// `waitMs` cap) are ``RosterGetRequest``'s, the same ones showcasectl builds its calls with; an invalid call is
/// `org.varlink.service.InvalidParameter` naming the parameter.
///
/// A class, immutable, so that the server's call memo can keep it with the message it was read from
/// (``VarlinkCall/remembered(_:)``): a call whose bytes were seen before, on any connection, reads nothing again.
final class GetParameters: Sendable {
    /// The query as spelled, which is also the reply cache's key.
    let key: ReplyCache.Key

    /// How long the caller is willing to wait for a warming roster, in milliseconds, at most
    /// ``RosterGetRequest/maxWaitMs``.
    let waitMs: Int?

    /// The reply-cache entry ``key`` last resolved to, so that a hit on a remembered message skips the cache's
    /// dictionary; ``ReplyCache`` uses it only while it is still its entry for the key. Read and written only by
    /// the cache's lookup, on the event-loop thread the cache is confined to, which is also the only thread that
    /// keeps parameters with a message.
    nonisolated(unsafe) var cacheEntry: ReplyCache.Entry?

    init(_ call: VarlinkCall) throws(VarlinkError) {
        let request = try call.request(RosterGetRequest.self)
        key = ReplyCache.Key(
            storefront: request.storefront, host: request.host, platform: request.platform, device: request.device,
            osVersion: request.osVersion, locale: request.locale)
        waitMs = request.heldWaitMs
    }
}
