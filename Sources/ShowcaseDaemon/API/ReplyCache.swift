import Foundation
import ShowcaseCore
import Varlink

/// Encoded `Roster.Get` replies, kept per query until the store or the configuration changes.
///
/// A hot query is one dictionary lookup plus three atomic loads (global and per-storefront store stamps,
/// config generation) and
/// a write of bytes encoded earlier: no JSON encoding, no filtering, no lock. The cache is confined
/// to the Varlink event-loop thread (handlers run there), which is why it needs no lock; replies
/// built elsewhere (after a `waitMs` wait) are simply not cached.
///
/// Memory stays proportional to what is actually hot: a reply is kept only the second time the same
/// query misses (a query asked once — say, one pass over 175 storefronts — costs nothing to keep), and
/// `byteBudget` bounds the rest. The budget is 8 MB because the whole daemon has 60 MB (BENCHMARKS.md) and
/// 175 storefronts × 200 apps already take about 45 MB: every storefront's 90 KB reply kept at once
/// would be another 16 MB. Over budget, random entries make room for the new one, so a hot set
/// larger than the budget keeps most of its hits instead of losing them all at once.
final class ReplyCache: @unchecked Sendable {
    /// The query as the caller spelled it: hits skip even parsing the storefront code.
    ///
    /// The members' hash is computed once, when the key is made, and a lookup hashes only that number: a key
    /// kept with its call's message (``GetParameters``) is looked up again and again, and hashing six strings
    /// each time cost a varied `Get` about 600 instructions (callgrind, BENCHMARKS.md issue 13).
    struct Key: Hashable {
        let storefront: String
        let host: String?
        let platform: String?
        let device: String?
        let osVersion: String?
        let locale: String?
        /// The hash of the members above; equal keys have equal members, so equal hashes.
        private let memberHash: Int

        init(
            storefront: String, host: String? = nil, platform: String? = nil, device: String? = nil,
            osVersion: String? = nil, locale: String? = nil
        ) {
            self.storefront = storefront
            self.host = host
            self.platform = platform
            self.device = device
            self.osVersion = osVersion
            self.locale = locale
            var hasher = Hasher()
            hasher.combine(storefront)
            hasher.combine(host)
            hasher.combine(platform)
            hasher.combine(device)
            hasher.combine(osVersion)
            hasher.combine(locale)
            memberHash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(memberHash)
        }
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

    private let clock: any ShowcaseClock
    /// Exclusivity is not checked at run time: one thread, and no access calls out while it lasts.
    @exclusivity(unchecked) private var entries: [Key: Entry] = [:]
    private var seenOnce: Set<Key> = []
    private var bytes = 0
    private let capacity: Int
    private let byteBudget: Int

    init(clock: any ShowcaseClock, capacity: Int = 4096, byteBudget: Int = 8 << 20) {
        self.clock = clock
        self.capacity = capacity
        self.byteBudget = byteBudget
    }

    func lookup(_ key: Key, stamp: Int, generation: Int) -> EncodedReply? {
        guard let entry = entries[key], entry.stamp == stamp, entry.generation == generation,
            entry.storefrontStamp.value == entry.storefrontValue
        else { return nil }
        if let expires = entry.expires, clock.now >= expires { return nil }
        return entry.reply
    }

    /// Keeps `reply`; the stamps must have been read *before* the answer was computed, so a change racing
    /// with the computation makes the entry stale rather than wrongly current.
    func store(
        _ reply: EncodedReply, for key: Key, stamp: Int, storefrontStamp: StorefrontStamp, storefrontValue: Int,
        generation: Int, expires: Date?
    ) {
        guard entries[key] != nil || seenOnce.remove(key) != nil else {
            if seenOnce.count >= capacity { seenOnce.removeAll() }
            seenOnce.insert(key)
            return
        }
        if let old = entries.removeValue(forKey: key) { bytes -= old.reply.bytes.count }
        guard reply.bytes.count <= byteBudget else { return }
        while entries.count >= capacity || bytes + reply.bytes.count > byteBudget,
            let victim = entries.randomElement()
        {
            entries[victim.key] = nil
            bytes -= victim.value.reply.bytes.count
        }
        bytes += reply.bytes.count
        entries[key] = Entry(
            reply: reply, stamp: stamp, storefrontStamp: storefrontStamp, storefrontValue: storefrontValue,
            generation: generation, expires: expires)
    }
}
