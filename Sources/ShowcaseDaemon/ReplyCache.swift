import Foundation
import Varlink

/// Encoded `Roster.Get` replies, kept per query until the store or the configuration changes.
///
/// A hot query is one dictionary lookup plus three atomic loads (global and per-storefront store stamps,
/// config generation) and
/// a write of bytes encoded earlier: no JSON encoding, no filtering, no lock. The cache is confined
/// to the Varlink event-loop thread (handlers run there), which is why it needs no lock; replies
/// built elsewhere (after a `waitMs` wait) are simply not cached.
final class ReplyCache: @unchecked Sendable {
    /// The query as the caller spelled it: hits skip even parsing the storefront code.
    struct Key: Hashable {
        var storefront: String
        var host: String?
        var platform: String?
        var osVersion: String?
        var locale: String?
    }

    private struct Entry {
        var reply: EncodedReply
        var stamp: Int
        var storefrontStamp: StorefrontStamp
        var storefrontValue: Int
        var generation: Int
        /// When a `fresh` reply turns `stale`: the reply must be rebuilt then.
        var expires: Date?
    }

    private var entries: [Key: Entry] = [:]
    private let capacity: Int

    init(capacity: Int = 4096) { self.capacity = capacity }

    func lookup(_ key: Key, stamp: Int, generation: Int) -> EncodedReply? {
        guard let entry = entries[key], entry.stamp == stamp, entry.generation == generation,
            entry.storefrontStamp.value == entry.storefrontValue
        else { return nil }
        if let expires = entry.expires, Date() >= expires { return nil }
        return entry.reply
    }

    /// Keeps `reply`; the stamps must have been read *before* the answer was computed, so a change racing
    /// with the computation makes the entry stale rather than wrongly current.
    func store(
        _ reply: EncodedReply, for key: Key, stamp: Int, storefrontStamp: StorefrontStamp, storefrontValue: Int,
        generation: Int, expires: Date?
    ) {
        if entries.count >= capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
        entries[key] = Entry(
            reply: reply, stamp: stamp, storefrontStamp: storefrontStamp, storefrontValue: storefrontValue,
            generation: generation, expires: expires)
    }
}
