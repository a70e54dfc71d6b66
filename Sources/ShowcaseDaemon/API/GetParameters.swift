import Varlink

/// The parameters of one `Roster.Get` call, read in a single pass over the call's members.
///
/// `Get` is the hot path, and six hashed dictionary lookups per call cost about as much as the reply-cache hit
/// they lead to. Reading the members once keeps the rules of `VarlinkCall`'s accessors — `storefront` a required
/// string; `host`, `platform`, `osVersion`, `locale` optional strings (null reads as absent); `waitMs` an
/// optional integer, not negative, capped at ``maxWaitMs``; unknown members ignored — and reports the first invalid parameter in that
/// order, whatever order the caller sent them in.
///
/// A class, immutable, so that the server's call memo can keep it with the message it was read from
/// (``VarlinkCall/remembered(_:)``): a call whose bytes were seen before, on any connection, reads nothing again.
final class GetParameters: Sendable {
    /// The query as spelled, which is also the reply cache's key.
    let key: ReplyCache.Key
    /// The longest wait a caller can ask for: a minute. A larger `waitMs` waits this long, so no call can keep a
    /// timer (and its memory) alive for longer.
    static let maxWaitMs: Int64 = 60_000

    /// How long the caller is willing to wait for a warming roster, in milliseconds, at most ``maxWaitMs``.
    let waitMs: Int64?

    /// The reply-cache entry ``key`` last resolved to, so that a hit on a remembered message skips the cache's
    /// dictionary; ``ReplyCache`` uses it only while it is still its entry for the key. Read and written only by
    /// the cache's lookup, on the event-loop thread the cache is confined to, which is also the only thread that
    /// keeps parameters with a message.
    nonisolated(unsafe) var cacheEntry: ReplyCache.Entry?

    init(_ call: VarlinkCall) throws(VarlinkError) {
        var storefront: JSONValue?
        var host: JSONValue?
        var platform: JSONValue?
        var device: JSONValue?
        var osVersion: JSONValue?
        var locale: JSONValue?
        var wait: JSONValue?
        for (name, value) in call.parameters {
            switch name {
            case "storefront": storefront = value
            case "host": host = value
            case "platform": platform = value
            case "device": device = value
            case "osVersion": osVersion = value
            case "locale": locale = value
            case "waitMs": wait = value
            default: continue
            }
        }
        guard let code = storefront?.stringValue else { throw .invalidParameter("storefront") }
        key = ReplyCache.Key(
            storefront: code, host: try Self.optionalString(host, "host"),
            platform: try Self.optionalString(platform, "platform"),
            device: try Self.optionalString(device, "device"),
            osVersion: try Self.optionalString(osVersion, "osVersion"),
            locale: try Self.optionalString(locale, "locale"))
        if let wait, !wait.isNull {
            guard let milliseconds = wait.intValue, milliseconds >= 0 else { throw .invalidParameter("waitMs") }
            waitMs = min(milliseconds, Self.maxWaitMs)
        } else {
            waitMs = nil
        }
    }

    private static func optionalString(_ value: JSONValue?, _ name: String) throws(VarlinkError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .invalidParameter(name) }
        return text
    }
}
